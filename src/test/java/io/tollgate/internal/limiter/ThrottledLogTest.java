package io.tollgate.internal.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** A flood of denials cannot flood the log: one line per interval, saying how many it stands for. */
class ThrottledLogTest {

    @Test
    void writesOneLinePerIntervalWithTheCountOfTheRest() {
        Logger logger = Logger.getLogger("tollgate-test-" + System.nanoTime());
        logger.setUseParentHandlers(false);
        logger.setLevel(Level.ALL);
        List<String> lines = new CopyOnWriteArrayList<>();
        logger.addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                lines.add(record.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
        AtomicLong now = new AtomicLong(1_000);
        ThrottledLog log = new ThrottledLog(logger, Level.FINE, TimeUnit.SECONDS.toNanos(10), now::get);

        // 100,000 denials over 60 s: one every 0.6 ms
        for (int i = 0; i < 100_000; i++) {
            if (log.due()) {
                log.write("denied", null);
            }
            now.addAndGet(600_000);
        }
        System.out.printf("throttled log: 100000 denials in 60 s, %d lines%n", lines.size());
        assertThat(lines).hasSize(6);
        assertThat(lines.get(0)).isEqualTo("denied");
        assertThat(lines.subList(1, 6)).allMatch(line -> line.startsWith("denied (and ") && line.endsWith(" more since the last report)"));
        long reported = lines.size() + lines.stream().skip(1)
                .mapToLong(line -> Long.parseLong(line.replaceAll("\\D", ""))).sum();
        // lines at denials 0, 16 667, 33 334, 50 001, 66 668 and 83 335; the 16 664 after the last wait for the next line
        assertThat(reported).as("lines plus the occurrences they stand for").isEqualTo(100_000 - 16_664);
    }
}
