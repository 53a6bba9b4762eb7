package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The default cluster name: kept in a file private to the OS user, shared by that user's instances. */
class PrivateClusterNameTest {

    private static final String WRITTEN = "tollgate-[0-9a-f]{32}";

    @TempDir
    Path home;

    @Test
    void theFirstInstanceCreatesAPrivateFileAndLaterOnesReadIt() throws Exception {
        Path directory = home.resolve(".tollgate");
        PrivateClusterName first = PrivateClusterName.in(directory);
        assertThat(first.problem()).isNull();
        assertThat(first.name()).matches(WRITTEN);
        Path file = directory.resolve("cluster-name");
        assertThat(Files.readString(file, StandardCharsets.US_ASCII).trim()).isEqualTo(first.name());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(directory))).isEqualTo("rwx------");

        assertThat(PrivateClusterName.in(directory).name()).as("a later instance").isEqualTo(first.name());
        assertThat(PrivateClusterName.in(home.resolve("elsewhere")).name()).as("another user's home").isNotEqualTo(first.name());
    }

    @Test
    void instancesStartingTogetherAgreeOnOneName() throws Exception {
        Path directory = home.resolve(".tollgate");
        int instances = 16;
        ExecutorService threads = Executors.newFixedThreadPool(instances);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<PrivateClusterName>> names = new ArrayList<>();
            for (int i = 0; i < instances; i++) {
                Callable<PrivateClusterName> start = () -> {
                    go.await();
                    return PrivateClusterName.in(directory);
                };
                names.add(threads.submit(start));
            }
            go.countDown();
            List<PrivateClusterName> resolved = new ArrayList<>();
            for (Future<PrivateClusterName> name : names) {
                resolved.add(name.get(60, TimeUnit.SECONDS));
            }
            assertThat(resolved).extracting(PrivateClusterName::problem).containsOnlyNulls();
            assertThat(resolved.stream().map(PrivateClusterName::name).collect(Collectors.toSet())).hasSize(1);
            try (var files = Files.list(directory)) {
                assertThat(files.map(f -> f.getFileName().toString())).as("no temporary file left").containsExactly("cluster-name");
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aFileOtherUsersCanReadIsNotUsedAndTheProblemNamesTheFileNotTheName() throws Exception {
        Path directory = Files.createDirectories(home.resolve(".tollgate"));
        String known = "tollgate-0123456789abcdef0123456789abcdef";
        Path file = Files.writeString(directory.resolve("cluster-name"), known + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        PrivateClusterName resolved = PrivateClusterName.in(directory);
        assertThat(resolved.name()).matches(WRITTEN).isNotEqualTo(known);
        assertThat(resolved.problem()).isEqualTo(file + ": other users may read or write it (rw-r--r--); make it private "
                + "(chmod 600) or delete it, and choose a new name: the old one may be known");
        assertThat(PrivateClusterName.in(directory).name()).as("one random name for this JVM").isEqualTo(resolved.name());
        assertThat(Files.readString(file).trim()).as("the file is left alone").isEqualTo(known);
    }

    @Test
    void aFileThatIsNotOneTollgateWroteIsNotUsed() throws Exception {
        Path directory = Files.createDirectories(home.resolve(".tollgate"));
        Path file = directory.resolve("cluster-name");
        for (String content : List.of("", "tollgate", "my-cluster", "tollgate-0123456789ABCDEF0123456789ABCDEF", "x".repeat(5_000))) {
            Files.writeString(file, content);
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            assertThat(PrivateClusterName.in(directory).problem()).as(content)
                    .isEqualTo(file + ": does not hold a name Tollgate wrote; delete it to get a new one");
        }
    }

    @Test
    void aLinkIsNotFollowed() throws Exception {
        Path target = home.resolve("somewhere-else");
        Files.writeString(target, "tollgate-0123456789abcdef0123456789abcdef");
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-------"));
        Path directory = Files.createDirectories(home.resolve(".tollgate"));
        Files.createSymbolicLink(directory.resolve("cluster-name"), target);
        assertThat(PrivateClusterName.in(directory).problem()).endsWith("cluster-name: not a regular file");
    }

    @Test
    void aDirectoryThatCannotBeCreatedGivesThisJvmARandomName() throws Exception {
        Path notADirectory = Files.writeString(home.resolve("file"), "");
        PrivateClusterName resolved = PrivateClusterName.in(notADirectory.resolve(".tollgate"));
        assertThat(resolved.name()).matches(WRITTEN);
        assertThat(resolved.problem()).startsWith(notADirectory.resolve(".tollgate").resolve("cluster-name") + ": FileSystemException");
        assertThat(PrivateClusterName.in(Path.of("relative", ".tollgate")).problem()).contains("the user's home directory is not known");
        assertThat(PrivateClusterName.in(Path.of("relative")).name()).as("one random name for this JVM").isEqualTo(resolved.name());
    }
}
