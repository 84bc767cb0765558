#pragma once

#include "engine/error.h"
#include "sim/scenario.h"

#include <QList>
#include <QString>

#include <optional>

namespace inflight::ui {

// A built-in lesson: a scenario file with a "lesson" (resources/scenarios/NN-….json, shipped in
// the app's resources as :/scenarios/NN-….json).
struct BuiltInLesson {
    QString path;  // the file
    QString title; // its "title" ("Lesson 1: …")
};

// Where the built-in lessons are read from: ":/scenarios" unless set (tests point it at
// resources/scenarios in the source tree).
QString builtInLessonDirectory();
void setBuiltInLessonDirectory(const QString& directory);

// The lessons in that directory, by file name (their number first).
QList<BuiltInLesson> builtInLessons();

// Reads and parses a scenario file; or "FILE: line L, column C, at FIELD: …" (or why the file
// could not be read).
engine::Result<sim::Scenario, QString> readScenarioFile(const QString& path);

} // namespace inflight::ui
