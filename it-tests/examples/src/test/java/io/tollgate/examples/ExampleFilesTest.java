package io.tollgate.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The examples stay what a user can copy: standalone poms on Tollgate's release of this version, the servers and the
 * Hazelcast the it-tests use, and the server configuration of {@code server-config/}.
 */
class ExampleFilesTest {

    private static final Path EXAMPLES = Path.of(System.getProperty("examples.dir"));
    private static final Path SERVER_CONFIG = Path.of(System.getProperty("server.config"));
    private static final String RELEASE = System.getProperty("tollgate.version").replace("-SNAPSHOT", "");

    @Test
    void eachExampleIsAStandaloneProjectOnTollgatesRelease() throws Exception {
        for (String example : List.of("open-liberty", "payara-micro")) {
            Element pom = xml(EXAMPLES.resolve(example).resolve("pom.xml")).getDocumentElement();
            assertThat(pom.getElementsByTagName("parent").getLength()).as("%s: a parent", example).isZero();
            assertThat(child(pom, "groupId")).as("%s: groupId", example).isEqualTo("com.example");
            assertThat(property(pom, "tollgate.version")).as("%s: tollgate.version", example).isEqualTo(RELEASE);
            assertThat(dependencies(pom)).as("%s: its dependencies", example)
                    .contains("io.tollgate:tollgate:${tollgate.version}:compile")
                    .contains("jakarta.platform:jakarta.jakartaee-api:10.0.0:provided");
        }
    }

    @Test
    void openLibertyBundlesASupportedHazelcastOnTheItTestsRuntimeWithServerConfigsSettings() throws Exception {
        Path example = EXAMPLES.resolve("open-liberty");
        Element pom = xml(example.resolve("pom.xml")).getDocumentElement();
        assertThat(dependencies(pom)).contains("com.hazelcast:hazelcast:${hazelcast.version}:compile");
        String hazelcast = property(pom, "hazelcast.version");
        assertThat(compare(hazelcast, System.getProperty("hazelcast.oldest"))).as("Hazelcast %s", hazelcast).isNotNegative();
        assertThat(compare(hazelcast, System.getProperty("hazelcast.newest"))).as("Hazelcast %s", hazelcast).isNotPositive();
        assertThat(property(pom, "liberty.runtime.version")).isEqualTo(System.getProperty("liberty.runtime.version"));

        Path config = example.resolve("src/main/liberty/config");
        assertThat(Files.readString(config.resolve("jvm.options")))
                .as("the example's jvm.options are server-config/liberty/jvm.options")
                .isEqualTo(Files.readString(SERVER_CONFIG.resolve("liberty/jvm.options")));
        List<String> required = features(SERVER_CONFIG.resolve("liberty/server.xml")).stream()
                .filter(feature -> !feature.startsWith("mpMetrics") && !feature.startsWith("mpHealth"))
                .toList();
        assertThat(features(config.resolve("server.xml")))
                .as("the features Tollgate needs (server-config/liberty/server.xml's, without the optional ones)")
                .containsExactlyInAnyOrderElementsOf(required);
    }

    @Test
    void payaraMicroBundlesNoHazelcastAndRunsTheItTestsPayara() throws Exception {
        Path example = EXAMPLES.resolve("payara-micro");
        Element pom = xml(example.resolve("pom.xml")).getDocumentElement();
        assertThat(dependencies(pom)).noneMatch(dependency -> dependency.startsWith("com.hazelcast:"));
        assertThat(property(pom, "payara.version")).isEqualTo(System.getProperty("payara.version"));
        assertThat(Files.readString(example.resolve("preboot.asadmin")))
                .isEqualTo(Files.readString(SERVER_CONFIG.resolve("payara/preboot.asadmin")));
    }

    @Test
    void quarkusHasTheExtensionAndASupportedHazelcastOnTheItTestsQuarkusWithServerConfigsJvmArgs() throws Exception {
        Path example = EXAMPLES.resolve("quarkus");
        Element pom = xml(example.resolve("pom.xml")).getDocumentElement();
        assertThat(pom.getElementsByTagName("parent").getLength()).as("quarkus: a parent").isZero();
        assertThat(child(pom, "groupId")).isEqualTo("com.example");
        assertThat(property(pom, "tollgate.version")).isEqualTo(RELEASE);
        assertThat(property(pom, "quarkus.version")).isEqualTo(System.getProperty("quarkus.version"));
        assertThat(dependencies(pom)).contains("io.tollgate:tollgate-quarkus:${tollgate.version}:compile")
                .contains("com.hazelcast:hazelcast:${hazelcast.version}:compile");
        String hazelcast = property(pom, "hazelcast.version");
        assertThat(compare(hazelcast, System.getProperty("hazelcast.oldest"))).as("Hazelcast %s", hazelcast).isNotNegative();
        assertThat(compare(hazelcast, System.getProperty("hazelcast.newest"))).as("Hazelcast %s", hazelcast).isNotPositive();
        assertThat(Files.readString(example.resolve("jvm.args")))
                .as("the example's jvm.args are server-config/quarkus/jvm.args")
                .isEqualTo(Files.readString(SERVER_CONFIG.resolve("quarkus/jvm.args")));
    }

    private static Document xml(Path file) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
    }

    private static String child(Element parent, String name) {
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            if (nodes.item(i) instanceof Element element && element.getTagName().equals(name)) {
                return element.getTextContent().strip();
            }
        }
        return null;
    }

    private static String property(Element pom, String name) {
        Element properties = (Element) pom.getElementsByTagName("properties").item(0);
        return child(properties, name);
    }

    /** groupId:artifactId:version:scope of each dependency (scope compile when none is given). */
    private static List<String> dependencies(Element pom) {
        List<String> dependencies = new ArrayList<>();
        NodeList nodes = pom.getElementsByTagName("dependency");
        for (int i = 0; i < nodes.getLength(); i++) {
            Element dependency = (Element) nodes.item(i);
            String scope = child(dependency, "scope");
            dependencies.add(child(dependency, "groupId") + ":" + child(dependency, "artifactId") + ":"
                    + child(dependency, "version") + ":" + (scope == null ? "compile" : scope));
        }
        return dependencies;
    }

    private static List<String> features(Path serverXml) throws Exception {
        List<String> features = new ArrayList<>();
        NodeList nodes = xml(serverXml).getElementsByTagName("feature");
        for (int i = 0; i < nodes.getLength(); i++) {
            features.add(nodes.item(i).getTextContent().strip());
        }
        return features;
    }

    private static int compare(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int c = Integer.compare(i < x.length ? Integer.parseInt(x[i]) : 0, i < y.length ? Integer.parseInt(y[i]) : 0);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}
