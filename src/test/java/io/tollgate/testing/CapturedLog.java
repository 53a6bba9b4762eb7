package io.tollgate.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** What a class's logger publishes from its opening to its closing: a test's view of what Tollgate logged. */
public final class CapturedLog extends Handler implements AutoCloseable {

    private final Logger logger;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    private CapturedLog(Logger logger) {
        this.logger = logger;
        logger.addHandler(this);
    }

    /** @return the records of {@code type}'s logger from now until {@link #close} */
    public static CapturedLog of(Class<?> type) {
        return new CapturedLog(Logger.getLogger(type.getName()));
    }

    /** @return every record so far, in order */
    public List<LogRecord> records() {
        return records;
    }

    /** @return the records so far at {@code level} */
    public List<LogRecord> at(Level level) {
        return records.stream().filter(record -> record.getLevel() == level).toList();
    }

    @Override
    public void publish(LogRecord record) {
        records.add(record);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
