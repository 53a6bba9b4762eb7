package io.tollgate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The keys code names buckets by: a single part as it is, several escaped and joined by ','. */
class RateLimitKeysTest {

    @Test
    void buildsTheKeysTheReadmeShows() {
        assertThat(RateLimitKeys.composite("k3y", "/items/42")).isEqualTo("k3y,/items/42");
        assertThat(RateLimitKeys.composite("50%off", "/items/a,b")).isEqualTo("50%25off,/items/a%2Cb");
        assertThat(RateLimitKeys.composite("", "/items/42")).isEqualTo(",/items/42");
        assertThat(RateLimitKeys.composite(List.of("a", "b", ""))).isEqualTo("a,b,");
        assertThat(RateLimitKeys.composite("203.0.113.7")).isEqualTo("203.0.113.7");
        assertThat(RateLimitKeys.composite("50%off,a")).as("one part: as it is").isEqualTo("50%off,a");
    }

    @Test
    void refusesNoPartOrANullOne() {
        assertThatThrownBy(RateLimitKeys::composite).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a key has at least one part");
        assertThatThrownBy(() -> RateLimitKeys.composite("a", null)).isInstanceOf(NullPointerException.class)
                .hasMessage("part 2 is null; a part a request lacks is empty");
        assertThatThrownBy(() -> RateLimitKeys.composite((String) null)).isInstanceOf(NullPointerException.class)
                .hasMessage("part 1 is null; a part a request lacks is empty");
    }
}
