package io.tollgate.simulator.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.simulator.InputProblems;
import io.tollgate.simulator.PropertiesFile;
import io.tollgate.simulator.RuleSet;
import io.tollgate.simulator.report.RowStats;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Replays access logs written by real Open Liberty and Payara Micro servers in their default formats
 * (see {@code src/test/resources/access-logs/README.md}): every line is read, and applying the
 * sample's own {@code search} rule decides exactly the requests the server answered 429.
 */
class RealAccessLogTest {

    private static final Path LOGS = Path.of("src/test/resources/access-logs");

    @ParameterizedTest
    @CsvSource({"liberty-default.log, liberty, 32", "payara-default.log, payara, 43"})
    void everyLineOfARealLogIsReadInItsDefaultFormat(String file, String format, int lines) throws Exception {
        AccessLog log = AccessLog.read(LOGS.resolve(file), null);

        assertThat(log.format().name()).isEqualTo(format);
        assertThat(log.bad()).isEmpty();
        assertThat(log.records()).hasSize(lines);
        assertThat(log.records()).extracting(LogRecord::host).containsOnly("127.0.0.1", "127.0.0.2");
    }

    @ParameterizedTest
    @CsvSource({"liberty-default.log", "payara-default.log"})
    void theSamplesRuleLimitsExactlyTheRequestsTheServerDenied(String file) throws Exception {
        AccessLog log = AccessLog.read(LOGS.resolve(file), null);
        // the sample's rule, applied by path as its annotation applies it to GET /api/search
        RuleSet rules = rules("tollgate.rules.search.rate=1", "tollgate.rules.search.burst=5", "tollgate.rules.search.key=ip",
                "tollgate.rules.search.paths=/search");

        Replay.Outcome outcome = Replay.run(log, rules, "/tollgate-sample/api", "replay");

        List<Integer> answered429 = new ArrayList<>();
        for (LogRecord record : log.records()) {
            if (record.status() == 429) {
                answered429.add(record.line());
            }
        }
        assertThat(answered429).hasSize(4);
        assertThat(outcome.limitedLines()).containsExactlyInAnyOrderElementsOf(answered429);
        assertThat(outcome.limited()).singleElement().satisfies(k -> {
            assertThat(k.key()).isEqualTo("127.0.0.1");
            assertThat(k.limited()).isEqualTo(4);
        });
        RowStats first = outcome.result().rows().get(0);
        assertThat(first.name()).isEqualTo("127.0.0.1");
        assertThat(first.denied()).isEqualTo(4);
        assertThat(first.longestStreak()).isEqualTo(4);
        assertThat(outcome.result().total().headroom()).isGreaterThanOrEqualTo(0);
    }

    @ParameterizedTest
    @CsvSource({"liberty-default.log, 0", "payara-default.log, 9"})
    void aRuleKeyedByTheLoggedStatusShowsWhoCollectsNotFounds(String file, int limited) throws Exception {
        AccessLog log = AccessLog.read(LOGS.resolve(file), null);
        // 3 not-founds at once, then one a minute, per client: Payara's log has 12 (11 while the application deployed)
        RuleSet rules = rules("tollgate.rules.not-found.rate=1/1m", "tollgate.rules.not-found.burst=3",
                "tollgate.rules.not-found.key=ip", "tollgate.rules.not-found.match=header:X-Log-Status=404");

        Replay.Outcome outcome = Replay.run(log, rules, "/tollgate-sample/api", "replay");

        assertThat(outcome.limitedLines()).hasSize(limited);
        for (int line : outcome.limitedLines()) {
            assertThat(log.records().stream().filter(r -> r.line() == line).findFirst().orElseThrow().status()).isEqualTo(404);
        }
    }

    private static RuleSet rules(String... lines) {
        InputProblems problems = new InputProblems();
        RuleSet rules = RuleSet.read(PropertiesFile.parse(String.join("\n", lines)), problems);
        problems.throwIfAny("rules");
        return rules;
    }
}
