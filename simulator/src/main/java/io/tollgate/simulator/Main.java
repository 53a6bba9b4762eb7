package io.tollgate.simulator;

import io.tollgate.simulator.chart.ChartFiles;
import io.tollgate.simulator.report.MarkdownTable;
import io.tollgate.simulator.report.Result;
import io.tollgate.simulator.traffic.Scenario;
import io.tollgate.simulator.traffic.ScenarioReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The simulator's command line ({@code ./simulate.sh}):
 * <pre>
 * simulate &lt;scenario.properties&gt; [--out DIR] [--seed N]
 * replay &lt;access.log&gt; --rules &lt;rules.properties&gt; [--format auto|liberty|payara|common|combined]
 *        [--strip-prefix /context/api] [--out DIR]
 * guide [--out DIR]
 * </pre>
 * Exit status: 0 done, 2 bad input (every problem printed), 1 anything else.
 */
public final class Main {

    static final String USAGE = String.join("\n",
            "Usage:",
            "  simulate <scenario.properties> [--out DIR] [--seed N]",
            "      run the scenario's rules over its modelled traffic; writes DIR/<name>.svg, .png and .md",
            "  replay <access.log> --rules <rules.properties> [--format auto|liberty|payara|common|combined]",
            "         [--strip-prefix PREFIX] [--out DIR]",
            "      apply the rules to the requests of an access log; same outputs",
            "  guide [--out DIR]",
            "      the tuning guide's scenarios, each with the recommended burst and a wrong one (default DIR docs/guides/tuning)",
            "DIR defaults to target/simulation.");

    /** Tollgate logs a shadow rule's would-be denials at INFO: the simulator counts them instead. Held so it stays set. */
    private static final java.util.logging.Logger TOLLGATE_LOG = java.util.logging.Logger.getLogger("io.tollgate.internal");

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** @return the exit status */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        TOLLGATE_LOG.setLevel(java.util.logging.Level.WARNING);
        try {
            if (args.length == 0 || args[0].equals("help") || args[0].equals("--help")) {
                out.println(USAGE);
                return args.length == 0 ? 2 : 0;
            }
            Options options = Options.parse(args);
            switch (args[0]) {
                case "simulate":
                    simulate(options, out);
                    return 0;
                case "replay":
                    io.tollgate.simulator.replay.ReplayCommand.run(options, out);
                    return 0;
                case "guide":
                    TuningGuide.write(options.path("--out", Path.of("docs/guides/tuning")), out);
                    return 0;
                default:
                    throw new InvalidInputException("Unknown command '" + args[0] + "'\n" + USAGE, List.of("unknown command " + args[0]));
            }
        } catch (InvalidInputException e) {
            err.println(e.getMessage());
            return 2;
        } catch (NoSuchFileException e) {
            err.println("No such file: " + e.getFile());
            return 2;
        } catch (IOException e) {
            err.println("Could not read or write: " + e);
            return 1;
        }
    }

    private static void simulate(Options options, PrintStream out) throws IOException {
        Path file = options.argument(1, "the scenario file");
        Map<String, String> properties = PropertiesFile.read(file);
        options.value("--seed").ifPresent(seed -> properties.put("simulation.seed", seed));
        long started = System.nanoTime();
        Scenario scenario = ScenarioReader.read(properties);
        Result result = Simulation.run(scenario);
        long elapsed = (System.nanoTime() - started) / 1_000_000;
        String name = file.getFileName().toString().replaceFirst("\\.properties$", "");
        List<Path> written = writeOutputs(result, options.path("--out", Path.of("target/simulation")), name);
        out.println(result.title() + ": " + result.subtitle());
        out.printf("%d requests decided in %d ms (seed %d; --seed %d replays this run)%n", result.total().requests(), elapsed,
                scenario.seed(), scenario.seed());
        out.println();
        out.print(MarkdownTable.of(result));
        out.println();
        for (Path path : written) {
            out.println("wrote " + path);
        }
    }

    /** Writes the chart (SVG and PNG) and the table (Markdown) of one run. */
    static List<Path> writeOutputs(Result result, Path dir, String name) throws IOException {
        Files.createDirectories(dir);
        List<Path> written = new ArrayList<>(ChartFiles.write(result, dir.resolve(name + ".svg"), dir.resolve(name + ".png")));
        Path table = dir.resolve(name + ".md");
        Files.writeString(table, "# " + result.title() + "\n\n" + result.subtitle() + "\n\n![chart](" + name + ".svg)\n\n"
                + MarkdownTable.of(result), StandardCharsets.UTF_8);
        written.add(table);
        return written;
    }
}
