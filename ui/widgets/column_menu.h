#pragma once

class QHeaderView;

namespace inflight::ui {

// A right click on `header` opens a menu of its columns, each checked when shown: the user hides
// and shows columns (the window remembers the header's state). The last column shown stays.
void addColumnMenu(QHeaderView* header);

} // namespace inflight::ui
