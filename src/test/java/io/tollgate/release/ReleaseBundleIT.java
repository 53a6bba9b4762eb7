package io.tollgate.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.Attributes;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * What a release publishes to Maven Central, read from the bundle the release profile made
 * ({@code target/central-publishing/central-bundle.zip}, run by {@code ./mvnw install -Prelease}): the jar
 * holds Tollgate's own classes only, with its licence, notice and manifest; the sources and the javadoc
 * of the public API are there; the pom carries what Central requires and no parent; every file has its
 * checksums, and its signature when the build was given a key. Between releases, the version a snapshot, the same
 * artifacts are checked where the release profile staged them ({@code target/central-deferred}), without checksums.
 */
class ReleaseBundleIT {

    private static final Path TARGET = Path.of(System.getProperty("tollgate.release.dir", "target"));
    private static final String VERSION = System.getProperty("tollgate.release.version", "");
    private static final boolean SIGNED = Boolean.getBoolean("tollgate.release.signed");
    private static final Path ROOT = Path.of(System.getProperty("basedir", "."));
    private static final String BASE = "io/tollgate/tollgate/" + VERSION + "/tollgate-" + VERSION;

    /** A snapshot (between releases) is staged but not bundled: Central takes no bundle of one. */
    private static final boolean SNAPSHOT = VERSION.endsWith("-SNAPSHOT");
    private static final Map<String, byte[]> BUNDLE = SNAPSHOT ? staged(TARGET.resolve("central-deferred"))
            : unzip(TARGET.resolve("central-publishing/central-bundle.zip"));

    @Test
    void theBundleHoldsThePomTheJarItsSourcesAndItsJavadocEachWithItsChecksums() throws Exception {
        List<String> artifacts = List.of(BASE + ".pom", BASE + ".jar", BASE + "-sources.jar", BASE + "-javadoc.jar");
        List<String> expected = new ArrayList<>();
        for (String artifact : artifacts) {
            expected.add(artifact);
            if (!SNAPSHOT) {
                expected.addAll(List.of(artifact + ".md5", artifact + ".sha1"));
            }
            if (SIGNED) {
                expected.add(artifact + ".asc");
            }
        }
        assertThat(BUNDLE.keySet()).as("the files of the bundle").containsAll(expected);
        assertThat(BUNDLE.keySet()).as("no other artifact (no test-jar)")
                .allMatch(name -> expected.contains(name.replaceFirst("\\.(asc\\.)?(md5|sha1|sha256|sha512)$", "")));
        for (String name : expected) {
            if (SNAPSHOT || name.endsWith(".md5") || name.endsWith(".sha1") || name.endsWith(".asc")) {
                continue;
            }
            assertThat(text(name + ".md5").trim()).as(name + ".md5").isEqualTo(digest("MD5", BUNDLE.get(name)));
            assertThat(text(name + ".sha1").trim()).as(name + ".sha1").isEqualTo(digest("SHA-1", BUNDLE.get(name)));
        }
    }

    @Test
    void thePomDependsOnReleasesOnly() {
        assertThat(VERSION).isNotBlank();
        assertThat(text(BASE + ".pom").replace("<version>" + VERSION + "</version>", ""))
                .as("a SNAPSHOT but the build's own version (which a release's is not)").doesNotContain("SNAPSHOT");
    }

    @Test
    void theJarHoldsTollgatesOwnClassesOnly() {
        Map<String, byte[]> jar = unzip(BUNDLE.get(BASE + ".jar"));
        assertThat(jar.keySet()).as("classes without a source in src/main/java: test, it-test or bundled classes")
                .filteredOn(name -> name.endsWith(".class"))
                .isNotEmpty()
                .allMatch(name -> Files.isRegularFile(ROOT.resolve("src/main/java").resolve(sourceOf(name))));
        assertThat(jar.keySet()).as("no bundled dependency").noneMatch(name -> name.startsWith("com/hazelcast/"))
                .filteredOn(name -> !name.endsWith(".class"))
                .allMatch(name -> name.startsWith("META-INF/") && !name.startsWith("META-INF/maven/")
                        || name.startsWith("META-INF/maven/io.tollgate/tollgate/"));
    }

    @Test
    void theJarCarriesTheLicenceTheNoticeAndItsNameAndVersion() throws IOException {
        Map<String, byte[]> jar = unzip(BUNDLE.get(BASE + ".jar"));
        assertThat(jar.get("META-INF/LICENSE")).as("META-INF/LICENSE").isEqualTo(Files.readAllBytes(ROOT.resolve("LICENSE")));
        assertThat(jar.get("META-INF/NOTICE")).as("META-INF/NOTICE").isEqualTo(Files.readAllBytes(ROOT.resolve("NOTICE")));
        assertThat(new String(jar.get("META-INF/LICENSE"), StandardCharsets.US_ASCII))
                .contains("Apache License", "Version 2.0, January 2004", "APPENDIX: How to apply the Apache License");

        Attributes manifest = new Manifest(new ByteArrayInputStream(jar.get("META-INF/MANIFEST.MF"))).getMainAttributes();
        assertThat(manifest.getValue("Implementation-Title")).isEqualTo("Tollgate");
        assertThat(manifest.getValue("Implementation-Version")).isEqualTo(VERSION);
    }

    @Test
    void theSourcesJarHoldsTheLibrarysSourcesOnly() {
        Map<String, byte[]> sources = unzip(BUNDLE.get(BASE + "-sources.jar"));
        assertThat(sources.keySet()).contains("io/tollgate/RateLimiter.java");
        assertThat(sources.keySet()).as("sources not in src/main").filteredOn(name -> name.endsWith(".java"))
                .allMatch(name -> Files.isRegularFile(ROOT.resolve("src/main/java").resolve(name)));
    }

    @Test
    void theJavadocDocumentsThePublicApiAndNothingInternal() {
        Map<String, byte[]> javadoc = unzip(BUNDLE.get(BASE + "-javadoc.jar"));
        assertThat(javadoc.keySet()).contains("index.html", "io/tollgate/RateLimiter.html", "io/tollgate/RateLimited.html",
                "io/tollgate/jaxrs/package-summary.html", "io/tollgate/hazelcast/package-summary.html");
        assertThat(javadoc.keySet()).noneMatch(name -> name.startsWith("io/tollgate/internal/"));
    }

    @Test
    void thePomHasWhatCentralRequiresAndNoParent() throws Exception {
        String pom = text(BASE + ".pom");
        assertThat(pom).doesNotContain("${", "<parent>");
        Element project = xml(pom).getDocumentElement();
        assertThat(child(project, "groupId")).isEqualTo("io.tollgate");
        assertThat(child(project, "artifactId")).isEqualTo("tollgate");
        assertThat(child(project, "version")).isEqualTo(VERSION);
        assertThat(child(project, "name")).isEqualTo("Tollgate");
        assertThat(child(project, "description")).isNotBlank();
        assertThat(child(project, "url")).startsWith("https://");
        assertThat(path(project, "licenses", "license", "name")).isEqualTo("Apache-2.0");
        assertThat(path(project, "licenses", "license", "url")).startsWith("https://");
        assertThat(path(project, "developers", "developer", "name")).isNotBlank();
        assertThat(path(project, "scm", "url")).startsWith("https://");
        assertThat(path(project, "scm", "connection")).startsWith("scm:git:");
    }

    private static String sourceOf(String classFile) {
        String name = classFile.substring(0, classFile.length() - ".class".length());
        int nested = name.indexOf('$');
        return (nested < 0 ? name : name.substring(0, nested)) + ".java";
    }

    private static String text(String name) {
        assertThat(BUNDLE.keySet()).contains(name);
        return new String(BUNDLE.get(name), StandardCharsets.UTF_8);
    }

    private static String digest(String algorithm, byte[] bytes) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(bytes));
    }

    private static Document xml(String text) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    private static String child(Element parent, String name) {
        for (var node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && element.getTagName().equals(name)) {
                return element.getTextContent().trim();
            }
        }
        return null;
    }

    private static String path(Element parent, String... names) {
        Element element = parent;
        for (int i = 0; i < names.length - 1 && element != null; i++) {
            Element next = null;
            for (var node = element.getFirstChild(); node != null; node = node.getNextSibling()) {
                if (node instanceof Element candidate && candidate.getTagName().equals(names[i])) {
                    next = candidate;
                    break;
                }
            }
            element = next;
        }
        return element == null ? null : child(element, names[names.length - 1]);
    }

    private static Map<String, byte[]> unzip(Path zip) {
        assertThat(zip).as("made by ./mvnw install -Prelease, online: the bundle plugin does not run with -o").isRegularFile();
        try {
            return unzip(Files.readAllBytes(zip));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, byte[]> staged(Path directory) {
        Path version = directory.resolve("io/tollgate/tollgate").resolve(VERSION);
        assertThat(version).as("staged by ./mvnw install -Prelease, online: the bundle plugin does not run with -o")
                .isDirectory();
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> listed = Files.list(version)) {
            for (Path file : listed.filter(path -> !path.getFileName().toString().startsWith("maven-metadata")).toList()) {
                files.put(directory.relativize(file).toString().replace('\\', '/'), Files.readAllBytes(file));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    private static Map<String, byte[]> unzip(byte[] zip) {
        Map<String, byte[]> entries = new TreeMap<>();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                if (!entry.isDirectory()) {
                    entries.put(entry.getName(), in.readAllBytes());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return entries;
    }
}
