package io.tollgate.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What lives in another JVM after a full GC: {@code jcmd <pid> GC.run}, then {@code GC.class_histogram}. Each
 * row is one loaded class with live instances; a class loaded by several class loaders has a row per loader.
 */
final class ClassHistogram {

    /** {@code   12:          345          6789  com.example.Type (module@1)} */
    private static final Pattern ROW = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+\\d+\\s+(\\S+)");

    private final List<Row> rows;

    record Row(String className, long instances) {
    }

    private ClassHistogram(List<Row> rows) {
        this.rows = rows;
    }

    /** Runs a full GC in the JVM {@code pid}, then takes its histogram. */
    static ClassHistogram afterFullGc(long pid) {
        jcmd(pid, "GC.run");
        List<Row> rows = new ArrayList<>();
        for (String line : jcmd(pid, "GC.class_histogram").split("\n")) {
            Matcher m = ROW.matcher(line);
            if (m.find()) {
                rows.add(new Row(m.group(2), Long.parseLong(m.group(1))));
            }
        }
        if (rows.isEmpty()) {
            throw new AssertionError("no class histogram from pid " + pid);
        }
        return new ClassHistogram(rows);
    }

    /** @return instances of the class {@code name}, over every loader that loaded it */
    long instances(String name) {
        return rows.stream().filter(r -> r.className().equals(name)).mapToLong(Row::instances).sum();
    }

    /** @return how many copies of classes whose name passes {@code test} are loaded with live instances */
    long copies(Predicate<String> test) {
        return rows.stream().filter(r -> test.test(r.className())).count();
    }

    /** @return rows of classes whose name passes {@code test} (for reports) */
    List<Row> rows(Predicate<String> test) {
        return rows.stream().filter(r -> test.test(r.className())).toList();
    }

    private static String jcmd(long pid, String command) {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        try {
            Process process = new ProcessBuilder(jcmd.toString(), Long.toString(pid), command).redirectErrorStream(true).start();
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("jcmd " + pid + " " + command + " did not finish in 120 s");
            }
            String text = new String(out, StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new AssertionError("jcmd " + pid + " " + command + " failed (" + process.exitValue() + "): " + text);
            }
            return text;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /**
     * @return the pid of the Open Liberty server {@code server} of this build (its JVM runs
     *         {@code <wlp>/bin/tools/ws-server.jar <server>}; {@code server run}, which the Arquillian
     *         container uses, writes no pid file)
     */
    static long libertyPid(String server) {
        String wlp = Path.of(System.getProperty("liberty.wlp")).toAbsolutePath().normalize().toString();
        Pattern serverJar = Pattern.compile(Pattern.quote(wlp + "/bin/tools/ws-server.jar") + "\\s+" + Pattern.quote(server) + "(\\s.*)?$");
        return onlyProcess(info -> info.commandLine().map(c -> serverJar.matcher(c).find()).orElse(false),
                "the Liberty server " + server + " of " + wlp);
    }

    /** @return the pid of the WildFly JVM whose server base directory is {@code wildfly.dir/<node>} */
    static long wildflyPid(String node) {
        String base = Path.of(System.getProperty("wildfly.dir"), node).toAbsolutePath().normalize().toString();
        String property = "-Djboss.server.base.dir=" + base;
        return onlyProcess(info -> info.arguments().map(a -> List.of(a).contains(property)).orElse(false), "WildFly with " + property);
    }

    /** @return the pid of the one JVM that {@code runs}, described as {@code what} */
    private static long onlyProcess(Predicate<ProcessHandle.Info> runs, String what) {
        List<ProcessHandle> found = ProcessHandle.allProcesses().filter(p -> runs.test(p.info())).toList();
        if (found.size() != 1) {
            throw new AssertionError(found.size() + " JVMs run " + what + ": " + found);
        }
        return found.get(0).pid();
    }
}
