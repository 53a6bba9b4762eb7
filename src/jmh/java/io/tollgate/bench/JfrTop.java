package io.tollgate.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;

/**
 * The top items of a JFR recording's CPU samples ({@code jdk.ExecutionSample}): the share of samples
 * with a Tollgate frame anywhere on the stack, the methods most often on top of the stack (self
 * time), and Tollgate's methods by how often they are anywhere on the stack (inclusive time).
 *
 * <pre>JfrTop &lt;recording.jfr&gt; &lt;report.md&gt; &lt;title&gt; [top]</pre>
 */
public final class JfrTop {

    private static final String TOLLGATE = "io.tollgate.";

    private JfrTop() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: JfrTop <recording.jfr> <report.md> <title> [top]");
            System.exit(2);
        }
        int top = args.length > 3 ? Integer.parseInt(args[3]) : 12;
        Map<String, Integer> self = new HashMap<>();
        Map<String, Integer> tollgateInclusive = new HashMap<>();
        int samples = 0;
        int withTollgate = 0;
        for (RecordedEvent event : RecordingFile.readAllEvents(Path.of(args[0]))) {
            if (!event.getEventType().getName().equals("jdk.ExecutionSample") || event.getStackTrace() == null) {
                continue;
            }
            List<RecordedFrame> frames = event.getStackTrace().getFrames();
            if (frames.isEmpty()) {
                continue;
            }
            samples++;
            self.merge(name(frames.get(0).getMethod()), 1, Integer::sum);
            Set<String> seen = new HashSet<>();
            for (RecordedFrame frame : frames) {
                String name = name(frame.getMethod());
                if (name.startsWith(TOLLGATE) && seen.add(name)) {
                    tollgateInclusive.merge(name, 1, Integer::sum);
                }
            }
            withTollgate += seen.isEmpty() ? 0 : 1;
        }
        StringBuilder out = new StringBuilder();
        out.append("### ").append(args[2]).append("\n\n");
        out.append(String.format(Locale.ROOT, "%,d CPU samples; %.1f %% with a Tollgate frame on the stack.%n%n", samples,
                100.0 * withTollgate / Math.max(1, samples)));
        out.append("| Top of the stack (self) | Samples |\n|---|---:|\n");
        appendTop(out, self, samples, top);
        out.append("\n| Tollgate method anywhere on the stack (inclusive) | Samples |\n|---|---:|\n");
        appendTop(out, tollgateInclusive, samples, top);
        out.append('\n');
        System.out.print(out);
        Files.createDirectories(Path.of(args[1]).toAbsolutePath().getParent());
        Files.writeString(Path.of(args[1]), out, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private static void appendTop(StringBuilder out, Map<String, Integer> counts, int samples, int top) {
        for (Map.Entry<String, Integer> entry : counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(top).collect(Collectors.toList())) {
            out.append(String.format(Locale.ROOT, "| `%s` | %.1f %% |%n", entry.getKey(), 100.0 * entry.getValue() / Math.max(1, samples)));
        }
    }

    private static String name(RecordedMethod method) {
        return method == null ? "?" : method.getType().getName() + "." + method.getName();
    }
}
