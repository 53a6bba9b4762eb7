package io.tollgate.simulator.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.simulator.InputProblems;
import io.tollgate.simulator.PropertiesFile;
import io.tollgate.simulator.RuleSet;
import io.tollgate.simulator.chart.ChartFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Replays the access logs the it-test servers wrote, when {@code -Dtollgate.it.logs=<dir>} names where
 * they are (the it-tests' {@code target}, relative to the repository's root; the test command's last step
 * does so, after the it-tests): every Open Liberty {@code http_access.log} and every Payara
 * Micro {@code *access_log*} under it must be read whole in its server's default format, and replays
 * into a chart and a table ({@code target/it-logs/}). Without the property there is nothing to read.
 */
class ItServerLogsTest {

    @Test
    void theItServersLogsReadWholeInTheirDefaultFormats() throws IOException {
        String dir = System.getProperty("tollgate.it.logs");
        Assumptions.assumeTrue(dir != null && !dir.isBlank(), "-Dtollgate.it.logs=<it-tests target> not given");
        Path root = Path.of("").toAbsolutePath().getParent(); // tests run in the simulator's folder
        Path where = root.resolve(dir);
        assertThat(where).as("-Dtollgate.it.logs").isDirectory();
        List<Path> logs;
        try (Stream<Path> files = Files.walk(where)) {
            logs = files.filter(Files::isRegularFile).filter(f -> expectedFormat(f) != null).sorted().collect(Collectors.toList());
        }
        assertThat(logs).as("access logs under " + where).extracting(ItServerLogsTest::expectedFormat).contains("liberty", "payara");
        InputProblems problems = new InputProblems();
        RuleSet rules = RuleSet.read(PropertiesFile.parse("tollgate.rules.all.rate=1\ntollgate.rules.all.burst=5\ntollgate.rules.all.key=ip\n"),
                problems);
        problems.throwIfAny("rules");
        for (Path log : logs) {
            AccessLog read = AccessLog.read(log, null);
            assertThat(read.format().name()).as(log.toString()).isEqualTo(expectedFormat(log));
            assertThat(read.bad()).as(log.toString()).isEmpty();
            assertThat(read.records()).as(log.toString()).isNotEmpty();
            Replay.Outcome outcome = Replay.run(read, rules, "", "Replay of " + log);
            assertThat(outcome.result().total().requests()).isEqualTo(read.records().size());
            String name = log.getParent().getParent().getFileName() + "-" + log.getFileName();
            ChartFiles.write(outcome.result(), Path.of("target/it-logs", name + ".svg"), Path.of("target/it-logs", name + ".png"));
            System.out.printf("%s: %d requests, %s format, %d limited by 1/s burst 5 per address%n", log, read.records().size(),
                    read.format().name(), outcome.result().total().limited());
        }
    }

    /** @return the format a server writes a log of this name in, or {@code null} if it is no access log */
    static String expectedFormat(Path file) {
        String name = file.getFileName().toString();
        if (name.equals("http_access.log") || name.equals("liberty-default.log")) {
            return "liberty";
        }
        if (name.contains("access_log") || name.equals("payara-default.log")) {
            return "payara";
        }
        return null;
    }
}
