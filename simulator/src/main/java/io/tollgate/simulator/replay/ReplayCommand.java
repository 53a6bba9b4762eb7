package io.tollgate.simulator.replay;

import io.tollgate.simulator.InputProblems;
import io.tollgate.simulator.InvalidInputException;
import io.tollgate.simulator.Options;
import io.tollgate.simulator.PropertiesFile;
import io.tollgate.simulator.RuleSet;
import io.tollgate.simulator.chart.ChartFiles;
import io.tollgate.simulator.report.MarkdownTable;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@code replay <access.log> --rules <rules.properties> [--format F] [--strip-prefix P] [--out DIR]}. */
public final class ReplayCommand {

    static final String TITLE = "simulation.title";
    /** The bad lines shown on the terminal; the Markdown lists them all. */
    static final int SHOWN = 20;

    private ReplayCommand() {
    }

    public static void run(Options options, PrintStream out) throws IOException {
        Path file = options.argument(1, "the access log");
        Path rulesFile = options.value("--rules").map(Path::of).orElseThrow(() -> new InvalidInputException(
                "--rules <rules.properties> is required: the rules to apply", List.of("--rules is not set")));
        InputProblems problems = new InputProblems();
        LogFormat format = null;
        String formatText = options.value("--format").orElse("auto");
        if (formatText.startsWith("pattern:")) {
            try {
                format = LogFormat.pattern("pattern", formatText.substring("pattern:".length()));
            } catch (IllegalArgumentException e) {
                problems.add("--format", formatText, e.getMessage());
            }
        } else if (!formatText.equals("auto")) {
            format = LogFormat.named(formatText).orElse(null);
            if (format == null) {
                problems.add("--format", formatText, "must be auto, liberty, payara, common, combined or pattern:<log pattern>");
            }
        }
        Map<String, String> properties = PropertiesFile.read(rulesFile);
        for (String property : properties.keySet()) {
            if (!property.startsWith("tollgate.") && !List.of(RuleSet.RULES, RuleSet.CHART_RULE, TITLE).contains(property)) {
                problems.add(property, properties.get(property), "unknown property; a rules file for a replay has tollgate.*, "
                        + RuleSet.RULES + ", " + RuleSet.CHART_RULE + " and " + TITLE);
            }
        }
        RuleSet rules = RuleSet.read(properties, problems);
        problems.throwIfAny("replay");
        AccessLog log = AccessLog.read(file, format);
        if (log.records().isEmpty()) {
            throw new InvalidInputException("Nothing to replay in " + file + ": " + lines(log, SHOWN).stripTrailing(), log.bad());
        }
        String title = properties.getOrDefault(TITLE, "Replay of " + file.getFileName());
        Replay.Outcome outcome = Replay.run(log, rules, options.value("--strip-prefix").orElse(""), title);
        Path dir = options.path("--out", Path.of("target/simulation"));
        String name = file.getFileName().toString().replaceAll("\\.(log|txt)$", "");
        Files.createDirectories(dir);
        List<Path> written = new ArrayList<>(ChartFiles.write(outcome.result(), dir.resolve(name + ".svg"), dir.resolve(name + ".png")));
        String report = markdown(outcome, name);
        Path table = dir.resolve(name + ".md");
        Files.writeString(table, report, StandardCharsets.UTF_8);
        written.add(table);
        out.println(outcome.result().title() + ": " + outcome.result().subtitle());
        out.println();
        out.print(MarkdownTable.of(outcome.result()));
        out.println();
        out.print(limited(outcome));
        out.println();
        out.print(lines(log, SHOWN));
        for (Path path : written) {
            out.println("wrote " + path);
        }
    }

    static String markdown(Replay.Outcome outcome, String name) {
        return "# " + outcome.result().title() + "\n\n" + outcome.result().subtitle() + "\n\n![chart](" + name + ".svg)\n\n"
                + MarkdownTable.of(outcome.result()) + "\n" + limited(outcome) + "\n" + lines(outcome.log(), Integer.MAX_VALUE);
    }

    /** Who would have been limited, when and how often. */
    static String limited(Replay.Outcome outcome) {
        if (outcome.limited().isEmpty()) {
            return "No request would have been limited.\n";
        }
        StringBuilder out = new StringBuilder("Limited keys (most first):\n\n| Key | Requests | Limited | First limited | Last limited |\n"
                + "| --- | ---: | ---: | --- | --- |\n");
        for (Replay.KeyStats k : outcome.limited()) {
            out.append("| ").append(k.key().isEmpty() ? "(empty key)" : k.key().replace("|", "\\|")).append(" | ").append(k.requests())
                    .append(" | ").append(k.limited()).append(" | ").append(k.first()).append(" | ").append(k.last()).append(" |\n");
        }
        return out.toString();
    }

    /** The lines that were read, and every one that was not, with its number. */
    static String lines(AccessLog log, int shown) {
        StringBuilder out = new StringBuilder();
        out.append("Read ").append(log.records().size()).append(" requests in the ").append(log.format()).append(" format");
        if (log.blank() > 0) {
            out.append("; ").append(log.blank()).append(" blank lines");
        }
        if (log.reordered() > 0) {
            out.append("; ").append(log.reordered()).append(" lines earlier than the line before (replayed in time order)");
        }
        out.append(log.bad().isEmpty() ? "; no bad lines.\n" : "; " + log.bad().size() + " bad lines, not replayed:\n");
        int n = 0;
        for (String bad : log.bad()) {
            if (n++ == shown) {
                out.append("- ... and ").append(log.bad().size() - shown).append(" more (see the Markdown report)\n");
                break;
            }
            out.append("- ").append(bad).append('\n');
        }
        return out.toString();
    }
}
