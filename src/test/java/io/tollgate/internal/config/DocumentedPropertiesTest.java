package io.tollgate.internal.config;

import static io.tollgate.internal.config.ConfigTesting.problems;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The configuration reference documents exactly the properties the tables declare ({@link GlobalProperties},
 * {@link RuleAttributes}), each with its default, and a bad value of each fails alone with its
 * property and value.
 */
class DocumentedPropertiesTest {

    /** The reference page and the reader know the same properties, so the walk below covers what users are told about. */
    @Test
    void theReadmeDocumentsExactlyThePropertiesTheReaderKnows() {
        Set<String> known = new TreeSet<>(GlobalProperties.names());
        known.add(ConfigReader.RULES);
        RuleAttributes.names().forEach(attribute -> known.add(BadConfiguration.RULE + attribute));
        assertThat(BadConfiguration.documentedProperties()).isEqualTo(known);
    }

    /** Each table row gives the default its declaration gives, in the order of the tables. */
    @Test
    void theReadmeGivesEveryPropertyTheDefaultOfItsDeclaration() {
        Map<String, String> declared = new LinkedHashMap<>();
        RuleAttributes.ALL.forEach(attribute -> declared.put(BadConfiguration.RULE + attribute.name(), attribute.documentedDefault()));
        GlobalProperties.ALL.forEach(property -> declared.put(property.name(), property.documentedDefault()));
        assertThat(BadConfiguration.documentedDefaults()).containsExactlyEntriesOf(declared);
    }

    @Test
    void everyDocumentedPropertyHasBadValuesToTryOrTakesAnyText() {
        Set<String> covered = new TreeSet<>(BadConfiguration.FREE_TEXT.keySet());
        BadConfiguration.cases().forEach(c -> covered.add(c.property));
        assertThat(covered).isEqualTo(BadConfiguration.documentedProperties());
        Set<String> withBadValues = BadConfiguration.cases().stream().map(c -> c.property).collect(Collectors.toSet());
        assertThat(BadConfiguration.FREE_TEXT.keySet()).doesNotContainAnyElementsOf(withBadValues);
        System.out.printf("configuration: %d documented properties; %d bad values over %d of them, each failing alone with "
                + "its property and value; %d take any text%n", covered.size(), BadConfiguration.cases().size(),
                withBadValues.size(), BadConfiguration.FREE_TEXT.size());
    }

    static Stream<BadConfiguration.Case> badValues() {
        return BadConfiguration.cases().stream();
    }

    /** Each bad value, alone in an otherwise valid configuration, fails it with one line naming the property and the value. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("badValues")
    void aBadValueOfEveryDocumentedPropertyIsReportedWithThePropertyAndTheValue(BadConfiguration.Case bad) {
        assertThat(problems(bad.properties())).singleElement(InstanceOfAssertFactories.STRING)
                .startsWith(bad.property + " = '" + bad.value + "': ");
    }
}
