package io.tollgate.simulator.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * An access log read in one format: its requests in time order, and every line that did not fit,
 * with its number and the reason. Blank lines are counted, not parsed.
 *
 * @param format    the format the lines were read in
 * @param records   the requests, sorted by time (stably: lines of one instant keep their order)
 * @param bad       the lines that did not fit, as {@code line N: reason}
 * @param blank     how many blank lines there were
 * @param reordered how many lines were earlier than the line before them (servers log at completion)
 */
public record AccessLog(LogFormat format, List<LogRecord> records, List<String> bad, int blank, int reordered) {

    /** Lines {@code auto} looks at to choose a format. */
    static final int SAMPLE = 50;

    /** Reads {@code file} in {@code format}, or the first of the named formats that fits its first lines best. */
    public static AccessLog read(Path file, LogFormat format) throws IOException {
        return parse(Files.readString(file, StandardCharsets.UTF_8), format);
    }

    /** @param format the format, or {@code null} to choose among the named ones */
    public static AccessLog parse(String text, LogFormat format) throws IOException {
        List<String> lines = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new StringReader(text))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lines.add(line);
            }
        }
        LogFormat chosen = format != null ? format : detect(lines);
        List<LogRecord> records = new ArrayList<>();
        List<String> bad = new ArrayList<>();
        int blank = 0;
        int reordered = 0;
        long last = Long.MIN_VALUE;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                blank++;
                continue;
            }
            try {
                LogRecord record = chosen.parse(i + 1, line);
                if (record.timeMicros() < last) {
                    reordered++;
                }
                last = Math.max(last, record.timeMicros());
                records.add(record);
            } catch (IllegalArgumentException e) {
                bad.add("line " + (i + 1) + ": " + e.getMessage());
            }
        }
        records.sort(Comparator.comparingLong(LogRecord::timeMicros)); // stable
        return new AccessLog(chosen, List.copyOf(records), List.copyOf(bad), blank, reordered);
    }

    /** @return the named format that reads most of the first non-blank lines (the first named, on a tie) */
    static LogFormat detect(List<String> lines) {
        LogFormat best = null;
        int bestCount = -1;
        for (String name : LogFormat.NAMED.keySet()) {
            LogFormat format = LogFormat.named(name).orElseThrow();
            int count = 0;
            int seen = 0;
            for (int i = 0; i < lines.size() && seen < SAMPLE; i++) {
                if (lines.get(i).isBlank()) {
                    continue;
                }
                seen++;
                try {
                    format.parse(i + 1, lines.get(i));
                    count++;
                } catch (IllegalArgumentException e) {
                    // not this format
                }
            }
            if (count > bestCount) {
                best = format;
                bestCount = count;
            }
        }
        return best;
    }
}
