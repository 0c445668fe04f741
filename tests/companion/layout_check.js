/* Injected into a copy of report.html by test_screenshot.py: once the page
 * has loaded, checks its layout and writes the verdict into the page, as JSON
 * in a <pre> of id h5perf-layout-verdict, for chromium --dump-dom to carry out.
 * Problems: two distinct pieces of text (or a chart image and a text) that
 * overlap, an element whose content is wider than its box (scrollWidth >
 * clientWidth: cut off or spilling into its neighbour), and text or an
 * image past the window's right edge (or left of its left edge). */
(function () {
  "use strict";
  function label(node) {
    var el = node.nodeType === 1 ? node : node.parentElement;
    var text = (node.nodeType === 1 ? el.getAttribute("alt") || el.tagName : node.textContent);
    return el.tagName.toLowerCase() + " '" + text.trim().replace(/\s+/g, " ").slice(0, 60) + "'";
  }
  function check() {
    var problems = [];
    var root = document.documentElement;
    var width = root.clientWidth;
    if (root.scrollWidth > width) {
      problems.push("page wider than the window: " + root.scrollWidth + " > " + width + " px");
    }
    var boxes = [];
    var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    var node;
    while ((node = walker.nextNode())) {
      if (!node.textContent.trim() || node.parentElement.closest("script, style, #h5perf-layout-verdict")) {
        continue;
      }
      var range = document.createRange();
      range.selectNodeContents(node);
      var rects = range.getClientRects();
      for (var i = 0; i < rects.length; i++) {
        if (rects[i].width >= 1 && rects[i].height >= 1) {
          boxes.push({node: node, r: rects[i]});
        }
      }
    }
    var texts = boxes.length;
    var images = document.querySelectorAll("img");
    for (var k = 0; k < images.length; k++) {
      boxes.push({node: images[k], r: images[k].getBoundingClientRect()});
    }
    boxes.forEach(function (b) {
      if (b.r.right > width + 0.5 || b.r.left < -0.5) {
        problems.push("past the window's edge (" + Math.round(b.r.left) + ".." +
                      Math.round(b.r.right) + " of " + width + " px): " + label(b.node));
      }
    });
    /* Overlap: a sweep over the boxes by their top; boxes of one text node
     * (the lines of a wrapped text) never overlap each other. */
    boxes.sort(function (a, b) { return a.r.top - b.r.top; });
    for (var a = 0; a < boxes.length; a++) {
      var ra = boxes[a].r;
      for (var b = a + 1; b < boxes.length && boxes[b].r.top < ra.bottom - 1; b++) {
        var rb = boxes[b].r;
        if (boxes[a].node === boxes[b].node) {
          continue;
        }
        var w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
        var h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
        if (w > 1 && h > 1) {
          problems.push("overlap (" + Math.round(w) + "x" + Math.round(h) + " px): " +
                        label(boxes[a].node) + " and " + label(boxes[b].node));
        }
      }
    }
    var all = document.body.querySelectorAll("*");
    for (var e = 0; e < all.length; e++) {
      var el = all[e];
      if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
        problems.push("content wider than its box (" + el.scrollWidth + " > " + el.clientWidth +
                      " px): " + label(el.firstChild && el.firstChild.nodeType === 3 ? el.firstChild : el));
      }
    }
    var out = document.createElement("pre");
    out.id = "h5perf-layout-verdict";
    out.textContent = JSON.stringify({width: width, height: root.scrollHeight, texts: texts,
                                      images: images.length, problems: problems});
    document.body.appendChild(out);
  }
  if (document.readyState === "complete") {
    check();
  } else {
    window.addEventListener("load", check);
  }
})();
