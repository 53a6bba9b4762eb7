package io.tollgate.simulator.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Access-log lines written by hand in each format the replay reads — Open Liberty's default, Payara's
 * default, NCSA common and combined — and lines that fit none, reported by number.
 */
class AccessLogTest {

    private static final long T0 = Instant.parse("2026-11-23T13:24:29Z").getEpochSecond() * 1_000_000L;

    @Test
    void libertyDefault() throws Exception {
        AccessLog log = AccessLog.parse(String.join("\n",
                "127.0.0.1 - [23/Nov/2026:13:24:29 +0000] \"GET /tollgate-sample/api/search?q=tea HTTP/1.1\" 200 16",
                "10.0.0.7 alice [23/Nov/2026:14:24:30 +0100] \"POST /tollgate-sample/api/uploads HTTP/1.1\" 429 232"), null);

        assertThat(log.format().name()).isEqualTo("liberty");
        assertThat(log.bad()).isEmpty();
        assertThat(log.records()).containsExactly(
                new LogRecord(1, T0, 1_000_000, "127.0.0.1", null, "GET", "/tollgate-sample/api/search?q=tea", 200, Map.of()),
                new LogRecord(2, T0 + 1_000_000, 1_000_000, "10.0.0.7", "alice", "POST", "/tollgate-sample/api/uploads", 429, Map.of()));
    }

    @Test
    void payaraDefault() throws Exception {
        AccessLog log = AccessLog.parse(String.join("\n",
                "\"127.0.0.1\" \"NULL-AUTH-USER\" \"23/Nov/2026:13:24:29 +0000\" \"GET /tollgate-sample/api/search?q=tea HTTP/1.1\" 200 16",
                "\"127.0.0.2\" \"bob\" \"23/Nov/2026:13:24:29 +0000\" \"GET /tollgate-sample/api/status HTTP/1.1\" 200 2"), null);

        assertThat(log.format().name()).isEqualTo("payara");
        assertThat(log.bad()).isEmpty();
        assertThat(log.records()).extracting(LogRecord::host, LogRecord::user, LogRecord::timeMicros, LogRecord::status)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("127.0.0.1", null, T0, 200),
                        org.assertj.core.groups.Tuple.tuple("127.0.0.2", "bob", T0, 200));
    }

    @Test
    void ncsaCommonAndCombined() throws Exception {
        AccessLog common = AccessLog.parse(
                "192.0.2.1 - frank [23/Nov/2026:13:24:29 +0000] \"GET /api/items/1 HTTP/1.0\" 404 -", null);
        assertThat(common.format().name()).isEqualTo("common");
        assertThat(common.records().get(0)).isEqualTo(
                new LogRecord(1, T0, 1_000_000, "192.0.2.1", "frank", "GET", "/api/items/1", 404, Map.of()));

        AccessLog combined = AccessLog.parse("192.0.2.1 - - [23/Nov/2026:13:24:29 +0000] \"GET /api/search HTTP/1.1\" 200 512 "
                + "\"https://example.com/\" \"curl/8.5 \\\"quoted\\\"\"", null);
        assertThat(combined.format().name()).isEqualTo("combined");
        assertThat(combined.records().get(0).headers())
                .containsExactly(Map.entry("Referer", "https://example.com/"), Map.entry("User-Agent", "curl/8.5 \"quoted\""));
    }

    @Test
    void millisecondsAreKeptAndSetTheResolution() throws Exception {
        AccessLog log = AccessLog.parse("127.0.0.1 - [23/Nov/2026:13:24:29.250 +0000] \"GET /a HTTP/1.1\" 200 1",
                LogFormat.named("liberty").orElseThrow());
        assertThat(log.records().get(0).timeMicros()).isEqualTo(T0 + 250_000);
        assertThat(log.records().get(0).resolution()).isEqualTo(1_000);
    }

    @Test
    void aPatternWithALoggedHeader() throws Exception {
        LogFormat format = LogFormat.pattern("pattern", "%h %u %{t}W \"%r\" %s %b %{X-Api-Key}i");
        AccessLog log = AccessLog.parse("127.0.0.1 - [23/Nov/2026:13:24:29 +0000] \"GET /a HTTP/1.1\" 200 1 key-7", format);
        assertThat(log.records().get(0).headers()).containsExactly(Map.entry("X-Api-Key", "key-7"));
    }

    @Test
    void badLinesAreCountedWithTheirNumbersAndReasonsNeverSkippedSilently() throws Exception {
        AccessLog log = AccessLog.parse(String.join("\n",
                "127.0.0.1 - [23/Nov/2026:13:24:29 +0000] \"GET /a HTTP/1.1\" 200 1",
                "",
                "127.0.0.1 - [32/Nov/2026:13:24:29 +0000] \"GET /a HTTP/1.1\" 200 1",
                "garbage",
                "127.0.0.1 - [23/Nov/2026:13:24:29 +0000] \"GET /a HTTP/1.1\" 2000 1",
                "127.0.0.1 - [23/Nov/2026:13:24:29 +0000] \"GET\" 200 1",
                "127.0.0.1 - [23/Nov/2026:13:24:29 +0000] \"GET /a HTTP/1.1 200 1",
                "\"127.0.0.1\" - [23/Nov/2026:13:24:29 +0000] \"GET /a HTTP/1.1\" 200 1",
                "127.0.0.1 - [23/Nov/2026:13:24:28 +0000] \"GET /b HTTP/1.1\" 200 1"), null);

        assertThat(log.format().name()).isEqualTo("liberty");
        assertThat(log.records()).extracting(LogRecord::line).containsExactly(9, 1); // in time order
        assertThat(log.blank()).isEqualTo(1);
        assertThat(log.reordered()).isEqualTo(1);
        assertThat(log.bad()).containsExactly(
                "line 3: time '32/Nov/2026:13:24:29 +0000' is not dd/MMM/yyyy:HH:mm:ss[.SSS] +hhmm",
                "line 4: expected 6 fields (%h %u %{t}W \"%r\" %s %b), found 1",
                "line 5: status '2000' is not an HTTP status",
                "line 6: request 'GET' is not <METHOD> <path> [<protocol>]",
                "line 7: a quoted field is not closed",
                "line 8: field 1 ('127.0.0.1') should be bare, without quotes or brackets");
    }

    @Test
    void theRequestAsTheRulesSeeIt() {
        LogRecord record = new LogRecord(1, T0, 1_000_000, "10.0.0.7", "alice", "GET",
                "/tollgate-sample/api/search?q=green%20tea&page=2", 429, Map.of("User-Agent", "curl"));
        var request = Replay.request(record, "/tollgate-sample/api");
        assertThat(request.path()).isEqualTo("/search");
        assertThat(request.remoteAddress()).isEqualTo("10.0.0.7");
        assertThat(request.principal()).isEqualTo("alice");
        assertThat(request.queryParameter("q")).isEqualTo("green tea");
        assertThat(request.header("user-agent")).isEqualTo("curl");
        assertThat(request.header("X-Log-Status")).isEqualTo("429");
        assertThat(request.header("X-Log-Method")).isEqualTo("GET");
    }
}
