// jresa HTML report: sortable tables. A header click sorts the rows by that column, by each
// cell's data-key (a number) where present, else by its text; a second click reverses.
"use strict";
(function () {
  function key(row, column) {
    var cell = row.cells[column];
    if (!cell) return "";
    var k = cell.getAttribute("data-key");
    if (k !== null) return k === "" ? Infinity : Number(k);
    return cell.textContent.trim().toLowerCase();
  }
  function compare(a, b) {
    if (typeof a === "number" && typeof b === "number") return a - b;
    return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
  }
  function sortBy(table, th, column) {
    var body = table.tBodies[0];
    if (!body) return;
    var ascending = th.getAttribute("aria-sort") !== "ascending";
    var headers = table.tHead ? table.tHead.rows[0].cells : [];
    for (var i = 0; i < headers.length; i++) headers[i].setAttribute("aria-sort", "none");
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var c = compare(key(a, column), key(b, column));
      return ascending ? c : -c;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }
  function install(table) {
    if (!table.tHead) return;
    var headers = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(headers, function (th, column) {
      th.setAttribute("aria-sort", "none");
      th.setAttribute("tabindex", "0");
      th.addEventListener("click", function () { sortBy(table, th, column); });
      th.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sortBy(table, th, column); }
      });
    });
    table.setAttribute("data-sortable", "on");
  }
  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), install);
  });
})();
