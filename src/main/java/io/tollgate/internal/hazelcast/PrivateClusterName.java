package io.tollgate.internal.hazelcast;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The cluster name of Tollgate's embedded members when none is configured: {@code tollgate-} and
 * 128 random bits, kept in {@code ~/.tollgate/cluster-name}, a file only its OS user can read. The
 * first instance creates it (whole, at once, owner-only), every later instance of that user reads
 * it, so they find each other with no set-up while another user's processes cannot guess the name.
 *
 * <p>If the file cannot be created or read, or is not private, this JVM gets a random name of its
 * own and {@link #problem()} says why. The name itself is never part of a message.
 */
final class PrivateClusterName {

    static final String FILE_NAME = "cluster-name";
    private static final String PREFIX = "tollgate-";
    private static final Pattern WRITTEN = Pattern.compile(PREFIX + "[0-9a-f]{32}");
    private static final int MAX_FILE_BYTES = 1_024;
    private static final Set<PosixFilePermission> PRIVATE = EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String THIS_JVM = random();

    private final String name;
    private final String problem;

    private PrivateClusterName(String name, String problem) {
        this.name = name;
        this.problem = problem;
    }

    /** @return the directory of the current OS user's name file, {@code ~/.tollgate} */
    static Path userDirectory() {
        return Path.of(System.getProperty("user.home"), ".tollgate");
    }

    /** Reads the name in {@code directory}, creating the directory and the file if need be. */
    static PrivateClusterName in(Path directory) {
        Path file = directory.resolve(FILE_NAME);
        try {
            if (!directory.isAbsolute()) {
                throw new Unusable("the user's home directory is not known (user.home = " + System.getProperty("user.home") + ")");
            }
            if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                create(directory, file);
            }
            return new PrivateClusterName(read(file), null);
        } catch (IOException | RuntimeException e) {
            return new PrivateClusterName(THIS_JVM, file + ": " + describe(e));
        }
    }

    /** @return the cluster name; never log it */
    String name() {
        return name;
    }

    /** @return why the file could not be used (the name is then this JVM's own), or {@code null} */
    String problem() {
        return problem;
    }

    private static void create(Path directory, Path file) throws IOException {
        boolean posix = Files.getFileStore(existingAncestor(directory)).supportsFileAttributeView(PosixFileAttributeView.class);
        FileAttribute<?>[] privateDirectory = posix
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"))}
                : new FileAttribute<?>[0];
        FileAttribute<?>[] privateFile = posix ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PRIVATE)}
                : new FileAttribute<?>[0];
        Files.createDirectories(directory, privateDirectory);
        // written whole under a temporary name, then linked into place: no reader sees a partial
        // file, and of instances starting together the first link wins and the others read its name
        Path written = Files.createTempFile(directory, "." + FILE_NAME + "-", ".tmp", privateFile);
        try {
            Files.write(written, (random() + "\n").getBytes(StandardCharsets.US_ASCII));
            try {
                Files.createLink(file, written);
            } catch (FileAlreadyExistsException e) {
                // another instance was first
            } catch (UnsupportedOperationException | IOException e) {
                if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                    Files.move(written, file); // no hard links here: a move that does not replace
                }
            }
        } finally {
            Files.deleteIfExists(written);
        }
    }

    private static String read(Path file) throws IOException {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new Unusable("not a regular file");
        }
        if (Files.getFileStore(file).supportsFileAttributeView(PosixFileAttributeView.class)) {
            PosixFileAttributes attributes = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!PRIVATE.containsAll(attributes.permissions())) {
                throw new Unusable("other users may read or write it (" + PosixFilePermissions.toString(attributes.permissions())
                        + "); make it private (chmod 600) or delete it, and choose a new name: the old one may be known");
            }
        }
        if (Files.size(file) > MAX_FILE_BYTES) {
            throw new Unusable("does not hold a name Tollgate wrote; delete it to get a new one");
        }
        String name = new String(Files.readAllBytes(file), StandardCharsets.US_ASCII).trim();
        if (!WRITTEN.matcher(name).matches()) {
            throw new Unusable("does not hold a name Tollgate wrote; delete it to get a new one");
        }
        return name;
    }

    private static Path existingAncestor(Path path) {
        Path existing = path.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            throw new IllegalStateException("no existing directory above " + path);
        }
        return existing;
    }

    private static String describe(Exception e) {
        String message = e.getMessage();
        return e instanceof Unusable ? message : e.getClass().getSimpleName() + (message == null ? "" : " (" + message + ")");
    }

    /** A file or directory that is there but cannot serve, for a reason this class explains. */
    private static final class Unusable extends IOException {
        private static final long serialVersionUID = 1L;

        Unusable(String reason) {
            super(reason);
        }
    }

    private static String random() {
        byte[] secret = new byte[16];
        RANDOM.nextBytes(secret);
        return PREFIX + HexFormat.of().formatHex(secret);
    }
}
