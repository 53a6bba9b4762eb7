package io.tollgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;

/**
 * The module access Hazelcast asks for on Java 17+ is listed four times: as {@code hazelcast.jvm.flags} in
 * parent/pom.xml (the library's test and benchmark JVMs), in server-config/liberty/jvm.options,
 * server-config/wildfly/jvm.args and server-config/quarkus/jvm.args (what users copy). They must list the same flags, in the same order.
 */
class HazelcastModuleFlagsTest {

    private static final Path PARENT_POM = Path.of("../parent/pom.xml");
    private static final Path LIBERTY_JVM_OPTIONS = Path.of("../server-config/liberty/jvm.options");
    private static final Path WILDFLY_JVM_ARGS = Path.of("../server-config/wildfly/jvm.args");
    private static final Path QUARKUS_JVM_ARGS = Path.of("../server-config/quarkus/jvm.args");

    @Test
    void theBuildAndTheLibertyJvmOptionsListTheSameFlags() throws Exception {
        List<String> build = build();
        assertFalse(build.isEmpty(), "no hazelcast.jvm.flags in " + PARENT_POM);
        assertEquals(build, flags(LIBERTY_JVM_OPTIONS), "make " + LIBERTY_JVM_OPTIONS + " list the flags of hazelcast.jvm.flags in "
                + PARENT_POM);
    }

    @Test
    void theBuildAndTheWildflyJvmArgsListTheSameFlags() throws Exception {
        assertEquals(build(), flags(WILDFLY_JVM_ARGS), "make " + WILDFLY_JVM_ARGS + " list the flags of hazelcast.jvm.flags in "
                + PARENT_POM);
    }

    @Test
    void theBuildAndTheQuarkusJvmArgsListTheSameFlags() throws Exception {
        assertEquals(build(), flags(QUARKUS_JVM_ARGS), "make " + QUARKUS_JVM_ARGS + " list the flags of hazelcast.jvm.flags in "
                + PARENT_POM);
    }

    /** {@code --add-opens a/b=ALL-UNNAMED ...}, each flag joined to its value by {@code =} as in jvm.options. */
    private static List<String> build() throws Exception {
        String flags = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(PARENT_POM.toFile())
                .getElementsByTagName("hazelcast.jvm.flags").item(0).getTextContent().trim();
        String[] words = flags.split("\\s+");
        List<String> joined = new ArrayList<>();
        for (int i = 0; i + 1 < words.length; i += 2) {
            joined.add(words[i] + "=" + words[i + 1]);
        }
        return joined;
    }

    /** The module flags of a server's JVM options file, one a line. */
    private static List<String> flags(Path file) throws Exception {
        return Files.readAllLines(file).stream().map(String::trim)
                .filter(line -> line.startsWith("--add-")).toList();
    }
}
