package io.tollgate.internal.limiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.Decision;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import java.math.BigDecimal;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DecisionsTest {

    private static final long T0 = 1_000_000_000_000L;

    @Test
    void aDecisionCarriesTheReportedLimitAndTimes() {
        TokenBucket bucket = TokenBucket.of(Limit.perSecond(BigDecimal.TEN, 20), Limit.of(1_000, 1_000, Duration.ofHours(1)));
        long[] state = null;
        for (int i = 0; i < 20; i++) {
            state = bucket.tryConsume(state, 1, T0).newState();
        }
        Decision decision = Decisions.of("search", bucket, 1, bucket.tryConsume(state, 1, T0 + 50_000));
        assertThat(decision).isEqualTo(new Decision("search", false, 1, 0, 20, 0, 1_950_000, 50_000, false, false));
        assertThat(decision.retryAfterSeconds()).isEqualTo(1);
        assertThat(decision.resetAfterSeconds()).isEqualTo(2);
        Decision hourly = Decisions.of("search", bucket, 1, Outcome.decided(true, 1, 979, 75_600_000, 0));
        assertThat(hourly.burst()).as("the limit the outcome reports").isEqualTo(1_000);
        assertThat(hourly.limitIndex()).isEqualTo(1);
    }

    @Test
    void anOutcomeTooLateToApplyIsNoDecision() {
        TokenBucket bucket = TokenBucket.of(Limit.perSecond(BigDecimal.TEN, 20));
        assertThatThrownBy(() -> Decisions.of("search", bucket, 1, Outcome.expired()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("after its deadline");
    }

    @Test
    void withoutTheStoreNothingIsChargedAndOnlyADenialWaits() {
        assertThat(Decisions.storeUnavailable("search", false, 2, 20, 1_000_000))
                .isEqualTo(new Decision("search", false, 2, 0, 20, 0, 0, 1_000_000, false, true));
        assertThat(Decisions.storeUnavailable("search", true, 2, 20, 1_000_000))
                .isEqualTo(new Decision("search", true, 2, 0, 20, 0, 0, 0, false, true));
    }

    @Test
    void inShadowModeADenialIsAllowedAndKeepsItsWait() {
        Decision denial = new Decision("trial", false, 1, 0, 10, 0, 1_000_000, 100_000, false, false);
        Decision shadow = Decisions.shadow(denial);
        assertThat(shadow).isEqualTo(new Decision("trial", true, 1, 0, 10, 0, 1_000_000, 100_000, true, false));
        assertThat(Decisions.shadow(shadow)).isEqualTo(shadow);
        Decision allowed = new Decision("trial", true, 1, 9, 10, 0, 100_000, 0, false, false);
        assertThat(Decisions.shadow(allowed)).isEqualTo(allowed);
    }
}
