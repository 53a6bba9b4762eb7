package io.tollgate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The public values as application code (and its tests) use them. */
class DecisionTest {

    @Test
    void aBuiltDenialReadsAsItWasBuilt() {
        Decision decision = Decision.builder("search").allowed(false).cost(3).remaining(1).burst(20, 1)
                .resetAfter(Duration.ofMillis(1_950)).retryAfter(Duration.ofNanos(50_000_999)).build();
        assertThat(decision).isEqualTo(new Decision("search", false, 3, 1, 20, 1, 1_950_000, 50_000, false, false));
        assertThat(decision.retryAfter()).isEqualTo(Duration.ofMillis(50));
        assertThat(decision.retryAfterSeconds()).isEqualTo(1);
        assertThat(decision.resetAfter()).isEqualTo(Duration.ofMillis(1_950));
        assertThat(decision.resetAfterSeconds()).isEqualTo(2);
        assertThat(decision).hasToString("Decision{rule=search, denied, cost=3, remaining=1, burst=20, limitIndex=1, "
                + "resetAfter=PT1.95S, retryAfter=PT0.05S}");
    }

    @Test
    void aBuilderStartsAllowedAtCostOneWithEveryOtherNumberZero() {
        Decision decision = Decision.builder("search").build();
        assertThat(decision).isEqualTo(new Decision("search", true, 1, 0, 0, 0, 0, 0, false, false));
        assertThat(decision.retryAfter()).isZero();
        assertThat(Decision.builder("trial").allowed(true).shadowDenied(true).storeUnavailable(true).build())
                .hasToString("Decision{rule=trial, allowed, cost=1, remaining=0, burst=0, limitIndex=0, resetAfter=PT0S, "
                        + "retryAfter=PT0S, shadowDenied, storeUnavailable}");
    }

    @Test
    void impossibleDecisionsAreRefused() {
        assertThatThrownBy(() -> Decision.builder(null).build()).isInstanceOf(NullPointerException.class).hasMessage("rule");
        assertThatThrownBy(() -> Decision.builder("search").remaining(-1).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("never negative").hasMessageContaining("remaining -1");
        assertThatThrownBy(() -> Decision.builder("search").retryAfter(Duration.ofSeconds(-1)).build())
                .hasMessageContaining("retryAfterMicros -1000000");
        assertThatThrownBy(() -> Decision.builder("search").allowed(false).shadowDenied(true).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("allowed must be true");
    }

    @Test
    void theExceptionCarriesTheDenialAndItsWait() {
        Decision denial = Decision.builder("reports").allowed(false).retryAfter(Duration.ofMillis(1_500)).build();
        RateLimitExceededException exception = new RateLimitExceededException(denial);
        assertThat(exception.decision()).isSameAs(denial);
        assertThat(exception.retryAfter()).isEqualTo(Duration.ofMillis(1_500));
        assertThat(exception).hasMessage("Rate limit exceeded: rule 'reports', retry after 2 s");
        assertThat(exception.getStackTrace()).isEmpty();
    }
}
