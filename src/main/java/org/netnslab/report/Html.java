package org.netnslab.report;

import java.util.List;

/** How report.html writes text and numbers: escaped for XHTML, figures to four significant digits. */
final class Html {
    private Html() {}

    /** @return {@code s} escaped for XHTML text and attributes; empty for null */
    static String esc(String s) {
        return s == null
                ? ""
                : s.replace("&", "&amp;")
                        .replace("<", "&lt;")
                        .replace(">", "&gt;")
                        .replace("\"", "&quot;");
    }

    /** @return a figure: thousands grouped to one decimal from 100, else four significant digits; empty for NaN */
    static String fmt(double v) {
        if (!Double.isFinite(v)) {
            return "";
        }
        return Math.abs(v) >= 100 ? String.format("%,.1f", v) : String.format("%.4g", v);
    }

    /** @return a table cell holding {@code html} (escaped already), aligned as figures are */
    static String td(String html) {
        return "<td>" + html + "</td>";
    }

    /** @return a table cell holding {@code html} (escaped already), aligned left as text is */
    static String tdLeft(String html) {
        return "<td class=\"l\">" + html + "</td>";
    }

    /** @return a table row of the cells ({@link #td}, {@link #tdLeft}), on a line of its own */
    static String row(String... cells) {
        return "<tr>" + String.join("", cells) + "</tr>\n";
    }

    /** @return the figures, comma separated */
    static String list(List<Double> values) {
        return String.join(", ", values.stream().map(Html::fmt).toList());
    }
}
