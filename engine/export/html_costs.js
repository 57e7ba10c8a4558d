/* Tripwright's standalone HTML map: the cost breakdown in the itinerary beside the map (issue 32 §6),
 * above the estimated total, as the app's Costs tab and the PDF list it. Data arrives only as JSON
 * (#tw-costs: engine/export/html_export.py) and reaches the page through textContent. Runs after
 * html_map.js has built the list (its DOMContentLoaded listener was added first). */
document.addEventListener("DOMContentLoaded", function () {
  "use strict";
  var node = document.getElementById("tw-costs"), side = document.getElementById("tw-itinerary");
  if (!node || !side) return;
  var costs = JSON.parse(node.textContent);
  var el = function (tag, className, text) {
    var made = document.createElement(tag);
    if (className) made.className = className;
    if (text !== undefined && text !== null) made.textContent = String(text);
    return made;
  };
  var section = el("section", "tw-costs");
  section.id = "tw-cost-breakdown";
  section.appendChild(el("h2", null, "Costs"));
  var table = el("table", "tw-cost-table");
  costs.rows.forEach(function (row) {
    var tr = el("tr", row.kind ? "tw-cost-" + row.kind : null);
    tr.appendChild(el("td", null, row.label));
    tr.appendChild(el("td", "tw-cost-amount", row.amount));
    table.appendChild(tr);
  });
  section.appendChild(table);
  if (costs.note) section.appendChild(el("div", "tw-note", costs.note));
  var total = side.querySelector(".tw-total");
  side.insertBefore(section, total);
});
