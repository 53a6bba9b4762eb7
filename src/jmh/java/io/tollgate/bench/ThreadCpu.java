package io.tollgate.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The CPU time of this JVM's threads between two moments, by group: a thread's name with its Hazelcast instance's
 * name and its digits left out ({@code hz.partition-operation.thread-#}), so that a pool is one group and members
 * of one JVM add up. The JVM's own threads that end meanwhile are not counted; the benchmark's are long-lived.
 */
final class ThreadCpu {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Map<Long, Long> start = new HashMap<>();

    /** Starts counting from now. */
    ThreadCpu() {
        for (long id : THREADS.getAllThreadIds()) {
            start.put(id, Math.max(0, THREADS.getThreadCpuTime(id)));
        }
    }

    /** @return the CPU nanoseconds each group of threads spent since this was made */
    Map<String, Long> byGroup() {
        Map<String, Long> groups = new TreeMap<>();
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info == null) {
                continue; // ended
            }
            long cpu = THREADS.getThreadCpuTime(info.getThreadId());
            if (cpu > 0) {
                groups.merge(group(info.getThreadName()), cpu - start.getOrDefault(info.getThreadId(), 0L), Long::sum);
            }
        }
        return groups;
    }

    /** @return the group of a thread named {@code name} */
    static String group(String name) {
        return name.replaceFirst("^hz\\.[^.]*\\.", "hz.").replaceAll("[0-9]+", "#");
    }

    /** @return the groups as one line of text ({@code name=nanos} separated by tabs), for {@link #decode} */
    static String encode(Map<String, Long> groups) {
        StringBuilder line = new StringBuilder();
        groups.forEach((group, nanos) -> line.append(line.length() == 0 ? "" : "\t").append(group).append('=').append(nanos));
        return line.toString();
    }

    /** @return the groups {@link #encode} wrote */
    static Map<String, Long> decode(String line) {
        Map<String, Long> groups = new TreeMap<>();
        for (String pair : line.split("\t")) {
            int equals = pair.lastIndexOf('=');
            if (equals > 0) {
                groups.put(pair.substring(0, equals), Long.parseLong(pair.substring(equals + 1)));
            }
        }
        return groups;
    }
}
