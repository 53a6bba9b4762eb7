package io.tollgate.simulator.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The table of a run in Markdown: per row and overall, requests, allowed, denied, the longest
 * denial streak, the largest {@code Retry-After}, the cost let through (in all and at its peak
 * second) and how far below {@code burst + rate × T} the grants stayed.
 */
public final class MarkdownTable {

    private MarkdownTable() {
    }

    /** @return the table, a blank line, and a note on the columns */
    public static String of(Result result) {
        boolean shadow = result.shadow();
        boolean badCost = result.total().badCost() > 0;
        List<String> header = new ArrayList<>(List.of("Client", "Requests", "Allowed", "Denied"));
        if (shadow) {
            header.add("Would be denied (shadow)");
        }
        if (badCost) {
            header.add("Bad cost (400)");
        }
        header.addAll(List.of("Longest denial streak", "Largest Retry-After", "Cost allowed", "Most cost in 1 s",
                "Headroom below burst + rate × T"));
        StringBuilder out = new StringBuilder();
        row(out, header);
        List<String> align = new ArrayList<>();
        align.add("---");
        for (int i = 1; i < header.size(); i++) {
            align.add("---:");
        }
        row(out, align);
        for (RowStats stats : result.rows()) {
            row(out, cells(stats, shadow, badCost, false));
        }
        if (result.rows().size() > 1) {
            row(out, cells(result.total(), shadow, badCost, true));
        }
        out.append('\n').append("Denied: answered 429. Longest denial streak: the most requests of one client denied in a row. "
                + "Headroom: the least, over every bucket and every window of time T, of `burst + rate × T` minus the tokens "
                + "granted in that window; 0 means some window got exactly its bound, and it is never below 0.\n");
        return out.toString();
    }

    private static List<String> cells(RowStats s, boolean shadow, boolean badCost, boolean total) {
        List<String> cells = new ArrayList<>();
        String name = s.name().replace("|", "\\|") + (s.clients() > 1 ? " (" + s.clients() + " clients)" : "");
        cells.add(total ? "**all**" : name);
        cells.add(Long.toString(s.requests()));
        cells.add(Long.toString(s.allowed()));
        cells.add(s.denied() + percent(s.denied(), s.requests()));
        if (shadow) {
            cells.add(s.shadowDenied() + percent(s.shadowDenied(), s.requests()));
        }
        if (badCost) {
            cells.add(Long.toString(s.badCost()));
        }
        cells.add(Long.toString(s.longestStreak()));
        cells.add(s.maxRetryAfter() == 0 ? "–" : s.maxRetryAfter() + " s");
        cells.add(Long.toString(s.costAllowed()));
        cells.add(Long.toString(s.peakPerSecond()));
        cells.add(Double.isNaN(s.headroom()) ? "–" : tokens(s.headroom()));
        return cells;
    }

    private static String percent(long part, long whole) {
        if (part == 0 || whole == 0) {
            return "";
        }
        return String.format(Locale.ROOT, " (%.1f %%)", 100.0 * part / whole);
    }

    static String tokens(double value) {
        String text = String.format(Locale.ROOT, "%.2f", value);
        if (text.endsWith(".00")) {
            text = text.substring(0, text.length() - 3);
        }
        return text.equals("-0") ? "0" : text;
    }

    private static void row(StringBuilder out, List<String> cells) {
        out.append("| ").append(String.join(" | ", cells)).append(" |\n");
    }
}
