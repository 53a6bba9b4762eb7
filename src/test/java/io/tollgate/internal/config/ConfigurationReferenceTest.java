package io.tollgate.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The configuration reference page is what the property declarations and their descriptions make: a property added to
 * the code without a description fails, and so does a default, a choice or a live attribute changed in the code but
 * not on the page. {@code -Dtollgate.docs.write=true} writes the page instead of checking it.
 */
class ConfigurationReferenceTest {

    /** Writes both generated reference parts: this page and the refused values of the error messages page. */
    static final String REGENERATE = "./mvnw -o -q -B test -Dtest='ConfigurationReferenceTest,ErrorsReferenceTest' -Dtollgate.docs.write=true";

    private static final Path ROOT = Path.of(System.getProperty("basedir", "."));

    @Test
    void thePageIsWhatTheCodeDeclares() throws IOException {
        Path page = ROOT.resolve(ConfigurationReference.PAGE);
        String expected = ConfigurationReference.page();
        if (Boolean.getBoolean("tollgate.docs.write")) {
            Files.createDirectories(page.getParent());
            Files.writeString(page, expected);
        }
        assertThat(page).as(ConfigurationReference.PAGE + " exists; write it with: " + REGENERATE).exists();
        List<String> differences = LineDiff.between(expected, Files.readString(page));
        assertThat(differences).as(ConfigurationReference.PAGE + " differs from the code (- the code, + the page); "
                + "regenerate it with: " + REGENERATE + "\n" + String.join("\n", differences)).isEmpty();
    }

    @Test
    void everyDeclaredPropertyIsOnThePageWithItsDefault() {
        String page = ConfigurationReference.page();
        RuleAttributes.ALL.forEach(attribute -> assertThat(page).contains("`" + attribute.name() + "`"));
        GlobalProperties.ALL.forEach(property -> assertThat(page)
                .contains("| `" + property.name() + "` | " + property.documentedDefault() + " | "));
        assertThat(page).contains("| `on-store-failure` | `local` | `local`, `allow`, `deny` | live | ");
        assertThat(page).contains("| `ban-status` | `429` | `429`, `403` |  | ");
    }

    @Test
    void aPropertyWithoutDescriptionFailsNamingIt() {
        Map<String, ConfigurationReference.Description> descriptions = new LinkedHashMap<>(ConfigurationReference.descriptions());
        descriptions.remove("tollgate.store.timeout");
        descriptions.remove("ban-for");
        assertThatThrownBy(() -> ConfigurationReference.page(descriptions))
                .hasMessageContaining("declared in the code but not described in " + ConfigurationReference.DESCRIPTIONS
                        + ": [ban-for, tollgate.store.timeout]");
    }

    @Test
    void aDescriptionOfNoPropertyFailsNamingIt() {
        Map<String, ConfigurationReference.Description> descriptions = new LinkedHashMap<>(ConfigurationReference.descriptions());
        descriptions.put("tollgate.no-such", new ConfigurationReference.Description("any text", null, "Nothing."));
        assertThatThrownBy(() -> ConfigurationReference.page(descriptions))
                .hasMessageContaining("declared nowhere in the code: [tollgate.no-such]");
    }

    @Test
    void aChangedDefaultShowsAsADifference() {
        String expected = ConfigurationReference.page();
        String edited = expected.replace("| `tollgate.store.timeout` | `250ms` |", "| `tollgate.store.timeout` | `1s` |");
        assertThat(edited).isNotEqualTo(expected);
        List<String> differences = LineDiff.between(expected, edited);
        assertThat(differences).hasSize(2);
        assertThat(differences.get(0)).startsWith("- ").contains("`250ms`");
        assertThat(differences.get(1)).startsWith("+ ").contains("`1s`");
    }

    /** The lines of two texts that differ, each with its line number: {@code -} only in the first, {@code +} only in the second. */
    static final class LineDiff {

        private LineDiff() {
        }

        static List<String> between(String first, String second) {
            List<String> a = first.lines().toList();
            List<String> b = second.lines().toList();
            int[][] common = new int[a.size() + 1][b.size() + 1];
            for (int i = a.size() - 1; i >= 0; i--) {
                for (int j = b.size() - 1; j >= 0; j--) {
                    common[i][j] = a.get(i).equals(b.get(j)) ? common[i + 1][j + 1] + 1 : Math.max(common[i + 1][j], common[i][j + 1]);
                }
            }
            List<String> out = new ArrayList<>();
            int i = 0;
            int j = 0;
            while (i < a.size() || j < b.size()) {
                if (i < a.size() && j < b.size() && a.get(i).equals(b.get(j))) {
                    i++;
                    j++;
                } else if (j == b.size() || i < a.size() && common[i + 1][j] >= common[i][j + 1]) {
                    out.add("- " + (i + 1) + ": " + a.get(i++));
                } else {
                    out.add("+ " + (j + 1) + ": " + b.get(j++));
                }
            }
            return out;
        }
    }
}
