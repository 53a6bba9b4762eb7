package io.tollgate.simulator;

import io.tollgate.simulator.chart.ChartFiles;
import io.tollgate.simulator.report.MarkdownTable;
import io.tollgate.simulator.report.Result;
import io.tollgate.simulator.report.RowStats;
import io.tollgate.simulator.traffic.ScenarioReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The tuning guide (docs/guides/tuning.md): four scenarios ({@code simulator/scenarios/*.properties}), each run with
 * the recommended rule and with one wrong setting, drawn side by side, with one sentence (its numbers
 * from the runs) on what the difference means. Writes {@code <scenario>.svg}, {@code .png} and
 * {@code tuning.md} (the text, ready for the guide).
 */
final class TuningGuide {

    /** One scenario of the guide: its file, and the wrong setting shown beside the recommended one. */
    record Case(String name, String heading, String property, String wrongValue, String wrongTitle,
            BiFunction<Result, Result, String> sentence) {
    }

    static final List<Case> CASES = List.of(
            new Case("interactive", "Interactive API: burst = 5 × rate", "tollgate.rules.api.burst", "2",
                    "Wrong: burst 2 (= rate)", TuningGuide::interactive),
            new Case("strict", "Strict steady rate: burst = rate", "tollgate.rules.backend.burst", "50",
                    "Wrong: burst 50 (10 × rate)", TuningGuide::strict),
            new Case("llm", "Expensive LLM calls: burst = rate, cost from a per-call header", "tollgate.rules.llm.cost", "1",
                    "Wrong: cost 1 per call (header ignored)", TuningGuide::llm),
            new Case("batch", "Batch job: burst = 10 × rate", "tollgate.rules.jobs.burst", "5",
                    "Wrong: burst 5 (= rate)", TuningGuide::batch));

    private TuningGuide() {
    }

    static void write(Path dir, PrintStream out) throws IOException {
        Files.createDirectories(dir);
        StringBuilder md = new StringBuilder();
        for (Case c : CASES) {
            Map<String, String> properties = scenario(c.name);
            Result good = Simulation.run(ScenarioReader.read(properties));
            Map<String, String> wrong = new LinkedHashMap<>(properties);
            wrong.put(c.property, c.wrongValue);
            wrong.put("simulation.title", c.wrongTitle);
            Result bad = Simulation.run(ScenarioReader.read(wrong));
            List<Path> files = ChartFiles.writePair(good, bad, dir.resolve(c.name + ".svg"), dir.resolve(c.name + ".png"));
            md.append("#### ").append(c.heading).append("\n\n")
                    .append("![").append(c.heading).append(": the recommended rule on the left, a wrong one on the right](")
                    .append(c.name).append(".svg)\n\n")
                    .append(c.sentence.apply(good, bad)).append("\n\n")
                    .append("<details><summary>The numbers (<code>simulator/scenarios/").append(c.name).append(".properties</code>)</summary>\n\n")
                    .append("Recommended:\n\n").append(MarkdownTable.of(good)).append("\n")
                    .append(c.wrongTitle).append(" (`").append(c.property).append("=").append(c.wrongValue).append("`):\n\n")
                    .append(MarkdownTable.of(bad)).append("\n</details>\n\n");
            for (Path file : files) {
                out.println("wrote " + file);
            }
        }
        Path text = dir.resolve("tuning.md");
        Files.writeString(text, md.toString(), StandardCharsets.UTF_8);
        out.println("wrote " + text);
    }

    static Map<String, String> scenario(String name) throws IOException {
        try (InputStream in = TuningGuide.class.getResourceAsStream("/scenarios/" + name + ".properties")) {
            if (in == null) {
                throw new IOException("scenario " + name + " is not on the class path");
            }
            return PropertiesFile.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    static RowStats row(Result result, String name) {
        return result.rows().stream().filter(r -> r.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no client " + name));
    }

    private static String percent(long part, long whole) {
        return String.format(Locale.ROOT, "%.0f %%", 100.0 * part / whole);
    }

    private static String interactive(Result good, Result bad) {
        long goodDenied = row(good, "alice").denied() + row(good, "bob").denied();
        long badDenied = row(bad, "alice").denied() + row(bad, "bob").denied();
        long sent = row(good, "alice").requests() + row(good, "bob").requests();
        return "Alice and Bob stay under the rate on average, but a page load is a burst: with burst 10 they lose "
                + percent(goodDenied, sent) + " of their calls, with burst 2 they lose " + percent(badDenied, sent)
                + " (every page load is cut short), while the scraper is held to the rate either way ("
                + row(good, "scraper").allowed() + " and " + row(bad, "scraper").allowed() + " of its "
                + row(good, "scraper").requests() + " calls pass).";
    }

    private static String strict(Result good, Result bad) {
        return "The backend copes with 5 requests a second. With burst 5 it never got more than " + good.total().peakPerSecond()
                + " in any one second (the bound is burst + rate × 1 s = 10); with burst 50, partner-b's hiccup put "
                + bad.total().peakPerSecond() + " through in one second. A burst is a promise that the backend takes that much at once.";
    }

    private static String llm(Result good, Result bad) {
        long seconds = good.spanMicros() / 1_000_000;
        long budget = 20 + 20 * seconds;
        return "Charging each call's stated cost holds the agent to " + row(good, "agent").costAllowed() + " of cost in "
                + seconds + " s (its budget: 20 + 20 × " + seconds + " = " + budget + "). Counting calls instead lets it spend "
                + row(bad, "agent").costAllowed() + ", and nothing is denied: the rule's bucket looks healthy while the "
                + "bill is " + String.format(Locale.ROOT, "%.1f", row(bad, "agent").costAllowed() / (double) budget) + "× the budget.";
    }

    private static String batch(Result good, Result bad) {
        RowStats goodExport = row(good, "export");
        RowStats badExport = row(bad, "export");
        return "Each export batch is 40 requests at once. With burst 50 all of them pass (" + goodExport.denied()
                + " denied of " + goodExport.requests() + "); with burst 5, " + badExport.denied() + " of "
                + badExport.requests() + " are denied: every batch is cut after the first few, though the job's average ("
                + "1.3/s) is far below the rate.";
    }
}
