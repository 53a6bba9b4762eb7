package io.tollgate.internal.config;

import static io.tollgate.internal.config.ConfigTesting.problems;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The error messages page ({@value #PAGE}) says what the code says: its table of refused values is made from a bad
 * value of every property, each read by the configuration reader ({@code -Dtollgate.docs.write=true} writes it); it
 * names exactly the problem types the code answers with; and every message it quotes is made of the texts of the
 * code, with {@code <placeholders>} where the code fills in a value.
 */
class ErrorsReferenceTest {

    static final String PAGE = "docs/reference/errors.md";
    static final String BEGIN = "<!-- begin: refused values (generated) -->";
    static final String END = "<!-- end: refused values -->";

    /** The rate every rule of the examples has, left out of the table's last column. */
    private static final String RULE_RATE = BadConfiguration.RULE + "rate";
    private static final Path ROOT = Path.of(System.getProperty("basedir", "."));
    private static final Pattern PROBLEM_TYPE = Pattern.compile(
            "urn:tollgate:problem:[a-z-]+|https://iana\\.org/assignments/http-problem-types#[a-z-]+");
    private static final Pattern CODE_SPAN = Pattern.compile("`([^`]+)`");
    private static final Pattern STRING_LITERAL = Pattern.compile("\"((?:[^\"\\\\\\n]|\\\\.)*)\"");
    private static final Pattern PLACEHOLDER = Pattern.compile("<[a-z][a-z -]*>");

    @Test
    void theRefusedValuesAreWhatTheReaderAnswers() throws IOException {
        Path page = ROOT.resolve(PAGE);
        String text = Files.readString(page);
        int begin = text.indexOf(BEGIN);
        int end = text.indexOf(END);
        assertThat(begin).as(PAGE + " has the markers " + BEGIN + " and " + END).isNotNegative();
        assertThat(end).isGreaterThan(begin);
        String expected = text.substring(0, begin + BEGIN.length()) + "\n" + refusedValues() + text.substring(end);
        if (Boolean.getBoolean("tollgate.docs.write")) {
            Files.writeString(page, expected);
            text = expected;
        }
        List<String> differences = ConfigurationReferenceTest.LineDiff.between(expected, text);
        assertThat(differences).as(PAGE + " differs from what the reader answers (- the reader, + the page); regenerate it with: "
                + ConfigurationReferenceTest.REGENERATE + "\n"
                + String.join("\n", differences)).isEmpty();
    }

    @Test
    void thePageNamesExactlyTheProblemTypesOfTheCode() throws IOException {
        Set<String> inCode = new TreeSet<>();
        for (String source : sources()) {
            PROBLEM_TYPE.matcher(source).results().forEach(match -> inCode.add(match.group()));
        }
        Set<String> onPage = PROBLEM_TYPE.matcher(Files.readString(ROOT.resolve(PAGE))).results().map(java.util.regex.MatchResult::group)
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(inCode).as("problem types in src/main/java").isNotEmpty();
        assertThat(onPage).isEqualTo(inCode);
    }

    @Test
    void everyMessageThePageQuotesIsMadeOfTheCodesTexts() throws IOException {
        String literals = literals();
        String page = Files.readString(ROOT.resolve(PAGE));
        String quoted = page.substring(page.indexOf("\n## Refused requests"));
        List<String> unknown = new ArrayList<>();
        int checked = 0;
        for (String line : quoted.lines().filter(line -> line.startsWith("|")).toList()) {
            Matcher span = CODE_SPAN.matcher(line);
            while (span.find()) {
                String message = span.group(1).replace("\\|", "|");
                if (message.length() < 25 || !message.contains(" ")) {
                    continue;
                }
                checked++;
                for (String fragment : PLACEHOLDER.split(message)) {
                    if (fragment.strip().length() >= 5 && !madeOf(fragment, literals)) {
                        unknown.add("'" + fragment + "' of `" + message + "`");
                    }
                }
            }
        }
        assertThat(checked).as("messages quoted").isGreaterThan(30);
        assertThat(unknown).as("texts the page quotes that no string of src/main/java holds").isEmpty();
    }

    @Test
    void aMessageTheCodeDoesNotMakeIsFound() throws IOException {
        String literals = literals();
        assertThat(madeOf("Tollgate's cluster has ", literals)).isTrue();
        assertThat(madeOf("Tollgate's cluster is on fire", literals)).isFalse();
    }

    /** @return the table of every bad value of every property, and its reason */
    static String refusedValues() {
        StringBuilder out = new StringBuilder("| Property | Refused value | Reason | With |\n|---|---|---|---|\n");
        for (BadConfiguration.Case bad : BadConfiguration.cases()) {
            List<String> lines = problems(bad.properties());
            String prefix = bad.property + " = '" + bad.value + "': ";
            assertThat(lines).singleElement().asString().startsWith(prefix);
            String with = bad.context.entrySet().stream().filter(entry -> !entry.equals(Map.entry(RULE_RATE, "10")))
                    .sorted(Map.Entry.comparingByKey())
                    .map(entry -> code(entry.getKey()) + " = " + code(entry.getValue())).collect(Collectors.joining(", "));
            out.append("| `").append(bad.property).append("` | ").append(code(bad.value)).append(" | ")
                    .append(code(lines.get(0).substring(prefix.length()))).append(" | ").append(with).append(" |\n");
        }
        return out.toString();
    }

    /** @return {@code text} as a Markdown code span in a table cell */
    private static String code(String text) {
        String escaped = text.replace("|", "\\|");
        if (text.isBlank()) {
            return "(blank: `" + text.replace(" ", "·") + "`)";
        }
        return escaped.contains("`") ? "`` " + escaped + " ``" : "`" + escaped + "`";
    }

    private static List<String> sources() throws IOException {
        try (Stream<Path> files = Files.walk(ROOT.resolve("src/main/java"))) {
            List<String> sources = new ArrayList<>();
            for (Path file : files.filter(file -> file.toString().endsWith(".java")).sorted().toList()) {
                sources.add(Files.readString(file));
            }
            return sources;
        }
    }

    /** @return every string literal of the sources, unescaped, each followed by a NUL */
    private static String literals() throws IOException {
        StringBuilder out = new StringBuilder();
        for (String source : sources()) {
            Matcher literal = STRING_LITERAL.matcher(source);
            while (literal.find()) {
                out.append(literal.group(1).replace("\\\"", "\"").replace("\\\\", "\\")).append('\0');
            }
        }
        return out.toString();
    }

    /**
     * @return whether {@code fragment} is pieces of string literals one after the other, as a message the code
     *         concatenates from literals, constants and conditional texts is: each piece as long as it can be, and
     *         at least 4 characters unless it ends the fragment
     */
    static boolean madeOf(String fragment, String literals) {
        int at = 0;
        while (at < fragment.length()) {
            int length = 0;
            while (at + length < fragment.length() && literals.contains(fragment.substring(at, at + length + 1))) {
                length++;
            }
            if (length == 0 || length < Math.min(4, fragment.length() - at)) {
                return false;
            }
            at += length;
        }
        return true;
    }
}
