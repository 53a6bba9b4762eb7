package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The build runs the tests tagged {@code hazelcast} a second time on the newest Hazelcast we support,
 * and the README promises that this covers every test that starts Hazelcast: every test class that
 * starts members or clients, directly or through an application on the Hazelcast store, carries the tag.
 */
class HazelcastTagsTest {

    private static final Path TESTS = Path.of("src", "test", "java");
    /** What a test class that starts Hazelcast contains. */
    private static final List<String> STARTS_HAZELCAST = List.of("SharedCluster", "HazelcastTestCluster.start",
            "JvmCluster.start", "Hazelcast.newHazelcastInstance", "HazelcastClient.newHazelcastClient", ".hazelcast(cluster");

    @Test
    void everyTestClassThatStartsHazelcastIsTaggedForTheSecondRun() throws IOException {
        List<String> starting;
        try (Stream<Path> files = Files.walk(TESTS)) {
            starting = files.filter(file -> file.getFileName().toString().endsWith("Test.java"))
                    .filter(file -> !file.endsWith(HazelcastTagsTest.class.getSimpleName() + ".java"))
                    .filter(file -> STARTS_HAZELCAST.stream().anyMatch(read(file)::contains))
                    .map(file -> TESTS.relativize(file).toString())
                    .sorted()
                    .collect(Collectors.toList());
        }
        List<String> untagged = starting.stream().filter(file -> !read(TESTS.resolve(file)).contains("@Tag(\"hazelcast\")"))
                .collect(Collectors.toList());
        System.out.printf("hazelcast tags: %d test classes start Hazelcast, %d of them untagged%n", starting.size(), untagged.size());
        assertThat(starting).as("test classes found that start Hazelcast").hasSizeGreaterThan(10);
        assertThat(untagged).as("test classes that start Hazelcast without @Tag(\"hazelcast\")").isEmpty();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
