package io.tollgate.readme;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.internal.config.RuleDefaults;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every example a user copies works as written: each fenced block of the documentation ({@link #DOCUMENTS}:
 * README.md, CONTRIBUTING.md, every page of docs/, server-config/README.md, it-tests/README.md and the
 * examples' READMEs, found by walking) is found by its info string and checked by kind, and so are the javadoc
 * examples of the public API and the {@code tollgate.*=} properties written inline. A block or page added later
 * is checked without touching this test; a block it cannot check fails, saying how to mark it (CONTRIBUTING.md,
 * "Examples in the docs"). Every relative link resolves, to a file and, after {@code #}, to one of its headings.
 *
 * <ul>
 * <li>{@code properties}: read with {@link java.util.Properties} and Tollgate's {@code ConfigReader}, with the
 * {@code @RateLimited} annotations of the section's Java blocks; it must validate. After
 * {@code <!-- readme: invalid -->} it must fail instead, with exactly the message of the {@code text} block
 * that follows it.
 * <li>{@code java}: compiled against Tollgate's API ({@link JavaSnippets}: imports, {@code ...} bodies and
 * stubs completed as a reader would).
 * <li>{@code xml}: parsed; Maven coordinates are this project's, a supported Hazelcast, or the build's own.
 * <li>{@code yaml}: parsed; a Hazelcast configuration also loaded by Hazelcast.
 * <li>{@code bash}: {@code bash -n}, and the files, jars, profiles, executions and URLs it names ({@link BlockChecks});
 * after {@code <!-- readme: your-project -->}, a command run in the reader's own project: its syntax and jar versions;
 * after {@code <!-- readme: repository-root -->}, one run from the root of a clone of this repository.
 * <li>{@code http}: a response's syntax; QuickStartIT (it-tests) compares it with both servers' answer, ExamplesIT
 * (it-tests/examples) an example's with that example's.
 * <li>{@code text}: only the message of an invalid example, a {@code <!-- readme: layout -->} file tree
 * (every path exists), or an {@code <!-- readme: illustration -->} (listed as not checked).
 * </ul>
 */
class ReadmeTest {

    static final Path ROOT = Path.of(System.getProperty("basedir", "."));
    static final List<Path> DOCUMENTS = documents();
    private static final Pattern EXTERNAL = Pattern.compile("^[a-z][a-z0-9+.-]*:.*");
    /** The section QuickStartIT deploys on both servers, the only one whose HTTP example is compared with them. */
    static final String QUICK_START = "Quick start";
    private static final Pattern INLINE_PROPERTY = Pattern.compile("tollgate\\.[\\w.$-]*=\\S.*");
    private static final Pattern JAVADOC_EXAMPLE = Pattern.compile("<pre>\\{@code\\s*\\n(.*?)}</pre>", Pattern.DOTALL);
    private static final Pattern JAVADOC_PROPERTY = Pattern.compile("\\{@code (tollgate\\.[\\w.$-]*=[^}\\s]*)}");

    private static final BlockChecks CHECKS = new BlockChecks(ROOT);
    private static final Map<String, Collection<RuleDefaults>> SECTION_ANNOTATIONS = new HashMap<>();

    @TestFactory
    Stream<DynamicTest> everyBlockOfTheReadmes() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path document : DOCUMENTS) {
            Markdown markdown = Markdown.read(ROOT, document);
            for (int i = 0; i < markdown.blocks().size(); i++) {
                int index = i;
                Markdown.Block block = markdown.blocks().get(i);
                tests.add(DynamicTest.dynamicTest(block.where(), () -> report(block.where(), check(markdown, index))));
            }
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> everyJavadocExampleOfThePublicApi() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        try (Stream<Path> files = Files.list(ROOT.resolve("src/main/java/io/tollgate"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                String source = Files.readString(file);
                Path relative = ROOT.relativize(file);
                Matcher example = JAVADOC_EXAMPLE.matcher(source);
                while (example.find()) {
                    String where = relative + ":" + line(source, example.start()) + " (javadoc example)";
                    String code = example.group(1).replaceAll("(?m)^\\s*\\* ?", "");
                    tests.add(DynamicTest.dynamicTest(where, () -> report(where, java(where, code))));
                }
                Matcher property = JAVADOC_PROPERTY.matcher(source);
                while (property.find()) {
                    String where = relative + ":" + line(source, property.start()) + " (javadoc property)";
                    String text = property.group(1);
                    tests.add(DynamicTest.dynamicTest(where, () -> report(where, CHECKS.inlineProperty(where, text))));
                }
            }
        }
        assertThat(tests).as("javadoc examples found").isNotEmpty();
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> everyPropertyWrittenInline() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path document : DOCUMENTS) {
            for (Markdown.Span span : Markdown.read(ROOT, document).spans()) {
                if (INLINE_PROPERTY.matcher(span.text()).matches()) {
                    String where = span.where() + " (`" + span.text() + "`)";
                    tests.add(DynamicTest.dynamicTest(where, () -> report(where, CHECKS.inlineProperty(where, span.text()))));
                }
            }
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> everyRelativeLinkResolves() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path document : DOCUMENTS) {
            for (Markdown.Link link : Markdown.read(ROOT, document).links()) {
                if (!EXTERNAL.matcher(link.target()).matches()) {
                    String where = link.where() + " (" + link.target() + ")";
                    tests.add(DynamicTest.dynamicTest(where, () -> report(where, link(link))));
                }
            }
        }
        assertThat(tests).as("relative links found").isNotEmpty();
        return tests.stream();
    }

    @Test
    void everyPageOfTheDocsIsChecked() {
        assertThat(DOCUMENTS).contains(Path.of("README.md"), Path.of("CONTRIBUTING.md"), Path.of("docs/guides/bans.md"),
                Path.of("server-config/README.md"), Path.of("it-tests/README.md"));
    }

    @Test
    void aLinkToAMissingFileOrHeadingFails() {
        Markdown missingFile = markdown("# L\n\nSee [the guide](no-such-page.md).\n");
        assertThatThrownBy(() -> link(missingFile.links().get(0))).hasMessageContaining("no-such-page.md")
                .hasMessageContaining("does not exist");
        Markdown missingHeading = markdown("# L\n\n## Real heading\n\nSee [below](#real-heading) and [there](#no-heading).\n");
        assertThat(link(missingHeading.links().get(0))).contains("heading");
        assertThatThrownBy(() -> link(missingHeading.links().get(1))).hasMessageContaining("#no-heading")
                .hasMessageContaining("real-heading");
    }

    @Test
    void theCiScriptRunsTheTestCommandTheReadmeGives() throws IOException {
        List<String> ci = Files.readAllLines(ROOT.resolve(".ci/run"));
        int marker = ci.indexOf("# The test command, as given in README.md:");
        assertThat(marker).as(".ci/run names the README's test command").isNotNegative();
        String command = ci.get(marker + 1);
        assertThat(Markdown.read(ROOT, Path.of("README.md")).section("Commands"))
                .as("a bash block of the README's Commands runs exactly what .ci/run runs: " + command)
                .anySatisfy(block -> assertThat(block.text().lines()).contains(command));
        assertThat(ci.get(marker + 3)).as(".ci/run stops with the status of a failing step of the test command, on the "
                + "line after its comment (a failure inside an && list does not stop a script under set -e)").startsWith("rc=$?;");
    }

    // ------------------------------------------------------------------ the convention, shown to fail where it must

    @Test
    void aBlockNoCheckCoversFailsSayingHowToMarkIt() {
        Markdown markdown = markdown("# Example\n\n```\nsome output\n```\n");
        assertThatThrownBy(() -> check(markdown, 0)).hasMessageContaining("no check covers")
                .hasMessageContaining("<!-- readme: invalid -->").hasMessageContaining("<!-- readme: layout -->")
                .hasMessageContaining("<!-- readme: illustration -->");
    }

    @Test
    void propertiesWithEndOfLineCommentsFailAsTheyWouldOnAServer() {
        Markdown markdown = markdown("# Quick start\n\n```properties\ntollgate.rules.search.rate=10        # 10 tokens per second\n```\n");
        assertThatThrownBy(() -> check(markdown, 0)).hasMessageContaining(
                "tollgate.rules.search.rate = '10        # 10 tokens per second': not a rate");
    }

    @Test
    void anInvalidExampleMustFailWithTheMessageItShowsWordForWord() {
        Markdown wrongMessage = markdown("# C\n\n<!-- readme: invalid -->\n```properties\ntollgate.rules.search.rate=ten\n```\n\n"
                + "```text\nInvalid Tollgate configuration (1 problem):\n  tollgate.rules.search.rate = 'ten': not a rate\n```\n");
        assertThatThrownBy(() -> check(wrongMessage, 0)).hasMessageContaining("differs from Tollgate's");
        Markdown valid = markdown("# C\n\n<!-- readme: invalid -->\n```properties\ntollgate.rules.search.rate=10\n```\n\n"
                + "```text\nanything\n```\n");
        assertThatThrownBy(() -> check(valid, 0)).hasMessageContaining("marked invalid, but the configuration validates");
    }

    @Test
    void javaThatDoesNotCompileFailsWithTheCompilersErrors() {
        Markdown markdown = markdown("# J\n\n```java\n@RateLimited(rate = 10)\npublic class Api {\n}\n```\n");
        assertThatThrownBy(() -> check(markdown, 0)).hasMessageContaining("does not compile")
                .hasMessageContaining("incompatible types");
    }

    @Test
    void coordinatesOutsideTheBuildFail() {
        Markdown markdown = markdown("# X\n\n```xml\n<dependency>\n  <groupId>com.hazelcast</groupId>\n"
                + "  <artifactId>hazelcast</artifactId>\n  <version>5.2.0</version>\n</dependency>\n```\n");
        assertThatThrownBy(() -> check(markdown, 0)).hasMessageContaining("outside the Hazelcast versions the build supports");
    }

    @Test
    void aCommandRunFromTheWrongFolderFails() {
        Markdown markdown = markdown("# S\n\n```bash\njava @jvm.args -jar payara-micro.jar\n```\n");
        assertThatThrownBy(() -> check(markdown, 0)).hasMessageContaining("jvm.args is not in")
                .hasMessageContaining("server-config/payara/jvm.args");
    }

    // ------------------------------------------------------------------ checks by kind

    private static String check(Markdown markdown, int index) {
        Markdown.Block block = markdown.blocks().get(index);
        String where = block.where();
        String marker = block.marker() == null ? "" : block.marker();
        Markdown.Block previous = index > 0 ? markdown.blocks().get(index - 1) : null;
        switch (block.info()) {
            case "properties":
                if (marker.equals("invalid")) {
                    Markdown.Block message = index + 1 < markdown.blocks().size() ? markdown.blocks().get(index + 1) : null;
                    if (message == null || !message.info().equals("text")) {
                        throw new AssertionError(where + ": an invalid example is followed by its message in a text block");
                    }
                    return CHECKS.invalidProperties(where, block.text(), annotations(markdown, block), message.text());
                }
                requireNoMarker(block, marker);
                return CHECKS.validProperties(where, block.text(), annotations(markdown, block));
            case "java":
                requireNoMarker(block, marker);
                return java(where, block.text());
            case "xml":
                requireNoMarker(block, marker);
                return CHECKS.xml(where, block.text());
            case "yaml", "yml":
                requireNoMarker(block, marker);
                return CHECKS.yaml(where, block.text());
            case "bash", "sh", "shell":
                if (marker.equals("your-project")) {
                    return CHECKS.bashInTheReadersProject(where, block.text());
                }
                if (marker.equals("repository-root")) {
                    return CHECKS.bashFromTheRoot(where, block.text());
                }
                requireNoMarker(block, marker);
                return CHECKS.bash(where, block.file(), block.text());
            case "http":
                requireNoMarker(block, marker);
                if (block.file().startsWith("examples")) {
                    return BlockChecks.http(where, block.text(), "the example's 429 by ExamplesIT (it-tests/examples)");
                }
                if (!block.file().equals(Path.of("README.md")) || !block.section().equals(QUICK_START)) {
                    throw new AssertionError(where + ": an HTTP example is compared with the servers only in README.md's \""
                            + QUICK_START + "\" (QuickStartIT) and in the examples' READMEs (ExamplesIT); move it there or extend QuickStartIT");
                }
                return BlockChecks.http(where, block.text());
            case "text":
                if (previous != null && previous.info().equals("properties") && "invalid".equals(previous.marker())) {
                    return "the message of the invalid example " + previous.where() + ", checked with it";
                }
                if (marker.equals("layout")) {
                    return CHECKS.layout(where, block.text());
                }
                if (marker.equals("illustration")) {
                    return "NOT CHECKED: marked as an illustration";
                }
                throw unclassified(block);
            default:
                throw unclassified(block);
        }
    }

    private static void requireNoMarker(Markdown.Block block, String marker) {
        if (!marker.isEmpty()) {
            throw new AssertionError(block.where() + ": the marker '" + marker + "' does not apply to a " + block.info() + " block");
        }
    }

    private static AssertionError unclassified(Markdown.Block block) {
        return new AssertionError(block.where() + ": no check covers this block. Give it the info string of what it is"
                + " (properties, java, xml, yaml, bash, http), or, for a text block, put on the line before it"
                + " <!-- readme: invalid --> (before a properties block that must fail: its message follows in a text block),"
                + " <!-- readme: layout --> (a file tree: every path must exist) or <!-- readme: illustration -->"
                + " (shows what no test can check; listed as not checked). See CONTRIBUTING.md, \"Examples in the docs\".");
    }

    /** @return what the link resolves to; fails if its file, or the heading after {@code #}, does not exist */
    static String link(Markdown.Link link) {
        String target = link.target();
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path dir = link.file().getParent() == null ? Path.of("") : link.file().getParent();
        Path file = path.isEmpty() ? link.file() : dir.resolve(path).normalize();
        if (!Files.exists(ROOT.resolve(file))) {
            throw new AssertionError(link.where() + ": the link " + target + " names " + file + ", which does not exist");
        }
        if (anchor == null) {
            return file + " exists";
        }
        if (!file.toString().endsWith(".md")) {
            throw new AssertionError(link.where() + ": the link " + target + " has an anchor, but " + file + " is no Markdown page");
        }
        List<String> anchors = Markdown.read(ROOT, file).anchors();
        if (!anchors.contains(anchor)) {
            throw new AssertionError(link.where() + ": the link " + target + " names the heading #" + anchor + ", which "
                    + file + " does not have; its headings: " + anchors);
        }
        return file + " has the heading #" + anchor;
    }

    /** @return README.md, CONTRIBUTING.md, every page of docs/, the server files' and it-tests' READMEs, the examples' */
    private static List<Path> documents() {
        List<Path> documents = new ArrayList<>(List.of(Path.of("README.md"), Path.of("CONTRIBUTING.md")));
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
            docs.filter(f -> f.toString().endsWith(".md")).map(ROOT::relativize).sorted().forEach(documents::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        documents.add(Path.of("server-config/README.md"));
        documents.add(Path.of("it-tests/README.md"));
        Path examples = ROOT.resolve("examples");
        if (Files.isDirectory(examples)) {
            try (Stream<Path> projects = Files.list(examples)) {
                projects.map(p -> p.resolve("README.md")).filter(Files::exists).map(ROOT::relativize).sorted()
                        .forEach(documents::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return List.copyOf(documents);
    }

    private static String java(String where, String code) {
        Path classes = ROOT.resolve("target/readme-examples").resolve(where.replaceAll("[^\\w.-]+", "_"));
        try {
            JavaSnippets.Result result = JavaSnippets.compile(List.of(new JavaSnippets.Snippet(where, code)), classes,
                    JavaSnippets.testClassPath(), ReadmeTest.class.getClassLoader());
            return "compiles" + (result.stubs().isEmpty() ? "" : " with the stubs " + result.stubs());
        } catch (JavaSnippets.CompileError e) {
            throw new AssertionError(where + ": " + e.getMessage());
        }
    }

    /** @return the rules the Java blocks of the block's section name in {@code @RateLimited}, as deployment reads them */
    private static Collection<RuleDefaults> annotations(Markdown markdown, Markdown.Block block) {
        String key = block.file() + "#" + block.section();
        return SECTION_ANNOTATIONS.computeIfAbsent(key, k -> {
            List<JavaSnippets.Snippet> snippets = new ArrayList<>();
            for (Markdown.Block b : markdown.section(block.section())) {
                if (b.info().equals("java")) {
                    snippets.add(new JavaSnippets.Snippet(b.where(), b.text()));
                }
            }
            if (snippets.isEmpty()) {
                return List.of();
            }
            Path classes = ROOT.resolve("target/readme-examples").resolve(k.replaceAll("[^\\w.-]+", "_"));
            JavaSnippets.Result result = JavaSnippets.compile(snippets, classes, JavaSnippets.testClassPath(),
                    ReadmeTest.class.getClassLoader());
            return BlockChecks.annotations(result.load(ReadmeTest.class.getClassLoader()));
        });
    }

    private static void report(String where, String result) {
        System.out.println("[readme] " + where + ": " + result);
    }

    private static int line(String source, int offset) {
        return (int) source.substring(0, offset).chars().filter(c -> c == '\n').count() + 1;
    }

    private static Markdown markdown(String text) {
        try {
            Path file = Files.createTempFile(ROOT.resolve("target"), "example", ".md");
            Files.writeString(file, text);
            file.toFile().deleteOnExit();
            return Markdown.read(ROOT, ROOT.relativize(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
