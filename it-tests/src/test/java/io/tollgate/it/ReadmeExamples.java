package io.tollgate.it;

import io.tollgate.readme.HttpExample;
import io.tollgate.readme.JavaSnippets;
import io.tollgate.readme.Markdown;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.GET;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The README's examples, read at test time (never copied): the Quick start (its Java blocks compiled as a
 * reader would, its properties as they stand, its HTTP example) and the Commands' curl loop.
 */
public final class ReadmeExamples {

    /** The repository root, seen from it-tests. */
    public static final Path ROOT = Path.of("..");
    public static final String QUICK_START = "Quick start";

    private static final Pattern HAZELCAST_VERSION = Pattern.compile(
            "<artifactId>hazelcast</artifactId>\\s*<version>([^<]+)</version>");

    private ReadmeExamples() {
    }

    public static Markdown readme() {
        return Markdown.read(ROOT, Path.of("README.md"));
    }

    /** @return the only block of {@code kind} in the Quick start */
    public static Markdown.Block quickStart(String kind) {
        List<Markdown.Block> blocks = readme().section(QUICK_START).stream().filter(b -> b.info().equals(kind)).toList();
        if (blocks.size() != 1) {
            throw new AssertionError("README.md's \"" + QUICK_START + "\" has " + blocks.size() + " " + kind
                    + " blocks; this test deploys exactly one: " + blocks);
        }
        return blocks.get(0);
    }

    /** @return the Quick start's Java blocks, compiled together, with the stubs they assume */
    public static JavaSnippets.Result quickStartClasses() {
        List<JavaSnippets.Snippet> snippets = new ArrayList<>();
        for (Markdown.Block block : readme().section(QUICK_START)) {
            if (block.info().equals("java")) {
                snippets.add(new JavaSnippets.Snippet(block.where(), block.text()));
            }
        }
        Path classes = Path.of(System.getProperty("it.work", "target"), "quick-start-classes"); // this server's own
        deleteTree(classes);
        return JavaSnippets.compile(snippets, classes, JavaSnippets.testClassPath(), ReadmeExamples.class.getClassLoader());
    }

    /** @return the Hazelcast version the Quick start tells users to add */
    public static String quickStartHazelcastVersion() {
        Matcher version = HAZELCAST_VERSION.matcher(quickStart("xml").text());
        if (!version.find()) {
            throw new AssertionError("the Quick start's xml block names no Hazelcast version");
        }
        return version.group(1).trim();
    }

    /**
     * The Quick start as a WAR: its classes, its properties as {@code META-INF/microprofile-config.properties},
     * Tollgate, and on Open Liberty and WildFly the Hazelcast the Quick start names (Payara has its own). Nothing else: no
     * beans.xml, no web.xml.
     */
    public static WebArchive quickStartWar(String name, JavaSnippets.Result classes) {
        WebArchive war = ShrinkWrap.create(WebArchive.class, name + ".war")
                .addAsResource(new StringAsset(quickStart("properties").text()), "META-INF/microprofile-config.properties")
                .addAsLibraries(new File(System.getProperty("it.tollgate.jar")));
        try (Stream<Path> files = Files.walk(classes.classes())) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                war.addAsResource(file.toFile(), classes.classes().relativize(file).toString());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!Deployments.isPayara()) {
            File hazelcast = new File(System.getProperty("it.hazelcast.jar"));
            String readme = "hazelcast-" + quickStartHazelcastVersion() + ".jar";
            if (!hazelcast.getName().equals(readme)) {
                throw new AssertionError("the Quick start says to add " + readme + ", the it-tests bundle " + hazelcast.getName()
                        + ": make them agree (it-tests/pom.xml, sample.hazelcast.version)");
            }
            war.addAsLibraries(hazelcast);
        }
        return war;
    }

    /** @return the path of the first GET resource method of the compiled classes, within the web application */
    public static String resourcePath(JavaSnippets.Result compiled) {
        List<Class<?>> classes = compiled.load(ReadmeExamples.class.getClassLoader());
        String application = classes.stream().map(c -> c.getAnnotation(ApplicationPath.class)).filter(a -> a != null)
                .map(ApplicationPath::value).findFirst()
                .orElseThrow(() -> new AssertionError("the Quick start has no JAX-RS application (@ApplicationPath)"));
        for (Class<?> type : classes) {
            jakarta.ws.rs.Path path = type.getAnnotation(jakarta.ws.rs.Path.class);
            if (path != null && Stream.of(type.getMethods()).anyMatch(m -> m.isAnnotationPresent(GET.class))) {
                return join(application, path.value());
            }
        }
        throw new AssertionError("the Quick start has no resource with a GET method");
    }

    /** @return the HTTP example of the Quick start */
    public static HttpExample quickStartResponse() {
        return HttpExample.parse(quickStart("http").text());
    }

    private static String join(String a, String b) {
        return (a.replaceAll("^/|/$", "") + "/" + b.replaceAll("^/|/$", "")).replaceAll("^/", "");
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
