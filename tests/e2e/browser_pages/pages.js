// Shared by the pages of browser_origin_test.py. attempt() and image() record what each request
// let the page see; finish() writes it all as JSON into <pre id="result"> (which the test reads
// from Chromium's --dump-dom) once everything has settled, or after a grace period at most.
'use strict';
const results = {};
const pending = [];

function attempt(key, makeRequest) {
  results[key] = { pending: true };
  pending.push((async () => {
    try {
      const response = await makeRequest();
      let text;
      try {
        text = await response.text();
      } catch (e) {
        text = 'unreadable: ' + e;
      }
      results[key] = { type: response.type, status: response.status, text };
    } catch (e) {
      results[key] = { error: String(e) };
    }
  })());
}

function image(key, src) {
  results[key] = { pending: true };
  pending.push(new Promise((resolve) => {
    const img = document.createElement('img');
    img.onload = () => { results[key] = { img: 'load', width: img.naturalWidth }; resolve(); };
    img.onerror = () => { results[key] = { img: 'error' }; resolve(); };
    img.src = src;
    document.body.append(img);
  }));
}

function frame(key, src) {
  const iframe = document.createElement('iframe');
  iframe.name = key;
  iframe.width = iframe.height = 1;
  if (src) iframe.src = src;
  document.body.append(iframe);
  return iframe;
}

// A form submitted into an iframe of its own, as a hostile page does it without the user.
function postForm(key, action, enctype, fields) {
  frame(key);
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = action;
  form.enctype = enctype;
  form.target = key;
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
  results[key] = { submitted: true };
}

function finish(delayMs) {
  window.addEventListener('load', () => setTimeout(async () => {
    const grace = new Promise((resolve) => setTimeout(() => resolve(false), 1500));
    const settled = await Promise.race([Promise.allSettled(pending).then(() => true), grace]);
    results.settled = settled;
    document.getElementById('result').textContent = JSON.stringify(results);
    document.title = 'done';
  }, delayMs));
}
