package io.tollgate.hosts;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** What the build passes to the rig (failsafe's system properties of pom.xml). */
final class Rig {

    private Rig() {
    }

    /** Where the rig writes: every host's folders, servers, logs ({@code target/hosts}). */
    static Path work() {
        return Path.of(property("hosts.work")).toAbsolutePath();
    }

    /** The production configuration: the repository's {@code server-config}. */
    static Path serverConfig() {
        return existing("hosts.server-config");
    }

    /** The one Open Liberty runtime every host runs ({@code target/liberty/wlp}). */
    static Path libertyRuntime() {
        return existing("hosts.liberty.wlp");
    }

    static Path payaraMicroJar() {
        return existing("hosts.payara.jar");
    }

    static Path tollgateJar() {
        return existing("hosts.tollgate.jar");
    }

    /** The Hazelcast jar a Liberty WAR bundles. */
    static Path hazelcastJar() {
        return existing("hosts.hazelcast.jar");
    }

    /** The JIT and GC flags of every JVM the tests start. */
    static List<String> jvmFlags() {
        String flags = System.getProperty("it.jvm.flags", "").trim();
        return flags.isEmpty() ? List.of() : List.of(flags.split("\\s+"));
    }

    /** The build's time stamp (yyyyMMddHHmmss), for names made up per run. */
    static String run() {
        return System.getProperty("hosts.run", Long.toString(System.currentTimeMillis()));
    }

    private static Path existing(String name) {
        Path path = Path.of(property(name)).toAbsolutePath();
        if (!Files.exists(path)) {
            throw new IllegalStateException("system property " + name + " names " + path + ", which does not exist");
        }
        return path;
    }

    private static String property(String name) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + name
                    + " is not set (run the tests through Maven: ./mvnw -f it-tests/hosts verify)");
        }
        return value;
    }
}
