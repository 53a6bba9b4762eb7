package io.tollgate.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line as a user runs it: what it writes, what it prints, and its exit status. */
class MainTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int main(String... args) {
        return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void simulateWritesAChartInSvgAndPngAndTheTable() throws Exception {
        Path scenario = dir.resolve("api.properties");
        Files.writeString(scenario, String.join("\n", "simulation.seed=5", "simulation.title=Two clients",
                "tollgate.rules.api.rate=2", "tollgate.rules.api.burst=4",
                "client.calm.phases=steady 30s 1/s", "client.eager.phases=steady 30s 6/s"));
        Path outDir = dir.resolve("out");

        assertThat(main("simulate", scenario.toString(), "--out", outDir.toString())).isZero();

        assertThat(out.toString(StandardCharsets.UTF_8)).contains("seed 5", "| calm |", "| eager |", "| **all** |");
        Document svg = Document.of(outDir.resolve("api.svg"));
        assertThat(svg.text).contains("Two clients", "time since start (s)", "tokens", "allowed", "denied (429)",
                "tokens in the bucket", "calm", "eager");
        var png = ImageIO.read(outDir.resolve("api.png").toFile());
        assertThat(png.getWidth()).isEqualTo(1800);
        assertThat(Files.readString(outDir.resolve("api.md"))).contains("![chart](api.svg)", "| calm |");
    }

    @Test
    void aBadScenarioPrintsEveryProblemExitsWith2AndWritesNothing() throws Exception {
        Path scenario = dir.resolve("bad.properties");
        Files.writeString(scenario, "tollgate.rules.api.rate=fast\nclient.c.phases=steady 10s\n");
        Path outDir = dir.resolve("out");

        assertThat(main("simulate", scenario.toString(), "--out", outDir.toString())).isEqualTo(2);

        assertThat(err.toString(StandardCharsets.UTF_8)).contains(
                "tollgate.rules.api.rate = 'fast': not a rate",
                "client.c.phases = 'steady 10s': 'steady 10s' is not a phase");
        assertThat(outDir).doesNotExist();
    }

    @Test
    void badOptionsAndMissingFilesExitWith2() {
        assertThat(main("simulate", dir.resolve("missing.properties").toString())).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("No such file: ");
        assertThat(main("simulate", "x.properties", "--colour", "red")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--colour = (not set): unknown option");
        assertThat(main("replay", "x.log")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--rules <rules.properties> is required");
        assertThat(main("fly")).isEqualTo(2);
    }

    @Test
    void replayTellsWhoWouldHaveBeenLimitedAndReportsBadLines() throws Exception {
        Path log = dir.resolve("access.log");
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 8; i++) { // 8 requests in one second from .7: burst 3 and 1/s let 3 through
            lines.append("10.0.0.7 - [23/Nov/2026:13:00:00 +0000] \"GET /app/api/search?q=").append(i).append(" HTTP/1.1\" 200 5\n");
        }
        lines.append("10.0.0.8 - [23/Nov/2026:13:00:05 +0000] \"GET /app/api/search HTTP/1.1\" 200 5\n");
        lines.append("not a log line\n");
        Files.writeString(log, lines);
        Path rules = dir.resolve("rules.properties");
        Files.writeString(rules, "tollgate.rules.search.rate=1\ntollgate.rules.search.burst=3\ntollgate.rules.search.paths=/search\n");
        Path outDir = dir.resolve("out");

        assertThat(main("replay", log.toString(), "--rules", rules.toString(), "--strip-prefix", "/app/api",
                "--out", outDir.toString())).isZero();

        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(printed).contains("| 10.0.0.7 | 8 | 3 | 5 (62.5 %) | 5 |",
                "| 10.0.0.7 | 8 | 5 | 2026-11-23 13:00:00 UTC | 2026-11-23 13:00:00 UTC |",
                "Read 9 requests in the liberty (%h %u %{t}W \"%r\" %s %b) format; 1 bad lines, not replayed:",
                "- line 10: expected 6 fields");
        assertThat(outDir.resolve("access.svg")).exists();
        assertThat(Files.readString(outDir.resolve("access.md"))).contains("- line 10: expected 6 fields");
    }

    @Test
    void aLogWithNoRequestToReplayAndAMalformedRulesFileExitWith2AndWriteNothing() throws Exception {
        Path log = dir.resolve("bad.log");
        Files.writeString(log, "garbage\n\nmore garbage here\n");
        Path rules = dir.resolve("rules.properties");
        Files.writeString(rules, "tollgate.rules.search.rate=1\n");
        Path outDir = dir.resolve("out");

        assertThat(main("replay", log.toString(), "--rules", rules.toString(), "--out", outDir.toString())).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("Nothing to replay in ", "1 blank lines",
                "- line 1: expected 6 fields", "- line 3: expected 6 fields");

        Files.writeString(rules, "tollgate.rules.search.rate=\\u12\n");
        assertThat(main("replay", log.toString(), "--rules", rules.toString(), "--out", outDir.toString())).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("Not a properties file: Malformed \\uxxxx encoding.");
        assertThat(outDir).doesNotExist();
    }

    @Test
    void theGuideWritesEveryScenarioSideBySide() throws Exception {
        assertThat(main("guide", "--out", dir.toString())).isZero();
        for (String name : new String[] {"interactive", "strict", "llm", "batch"}) {
            Document svg = Document.of(dir.resolve(name + ".svg"));
            assertThat(svg.text).contains("Wrong:", "time since start (s)");
            assertThat(ImageIO.read(dir.resolve(name + ".png").toFile()).getWidth()).isEqualTo(1800);
        }
        String generated = Files.readString(dir.resolve("tuning.md"));
        assertThat(generated).contains("#### Interactive API", "![", "interactive.svg");
        // what is committed is what the command generates, and the tuning guide shows it
        assertThat(Files.readString(Path.of("../docs/guides/tuning/tuning.md"))).isEqualTo(generated);
        String guide = Files.readString(Path.of("../docs/guides/tuning.md"));
        for (String paragraph : generated.split("\n\n")) {
            if (paragraph.startsWith("#### ")) { // a heading, at the guide's own level
                assertThat(guide).contains("# " + paragraph.strip().substring("#### ".length()));
            } else if (!paragraph.isBlank() && Character.isUpperCase(paragraph.charAt(0))
                    && !paragraph.startsWith("Recommended") && !paragraph.startsWith("Wrong") && !paragraph.startsWith("Denied")) {
                assertThat(guide).contains(paragraph.strip());
            }
        }
        for (String name : new String[] {"interactive", "strict", "llm", "batch"}) {
            assertThat(guide).contains("](tuning/" + name + ".svg)");
        }
    }

    /** An SVG file, parsed as XML (so it is well-formed), and its text. */
    private record Document(String text) {
        static Document of(Path file) throws Exception {
            var factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            var document = factory.newDocumentBuilder().parse(file.toFile());
            assertThat(document.getDocumentElement().getTagName()).isEqualTo("svg");
            return new Document(document.getDocumentElement().getTextContent());
        }
    }
}
