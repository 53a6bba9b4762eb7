package io.tollgate.internal.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LimitTest {

    @Test
    void reducesTheRateToIntegerUnits() {
        Limit limit = Limit.of(20, 10, Duration.ofSeconds(1));
        assertThat(limit.unitsPerToken()).isEqualTo(100_000); // one token every 100 ms
        assertThat(limit.refillUnitsPerMicro()).isEqualTo(1);
        assertThat(limit.capacityUnits()).isEqualTo(2_000_000);
        assertThat(limit.fillMicros()).isEqualTo(2_000_000);
        assertThat(limit).hasToString("10/1s burst 20");
    }

    @Test
    void keepsRatesThatDoNotDivideTheSecondExact() {
        Limit limit = Limit.of(5, 3, Duration.ofSeconds(1));
        assertThat(limit.unitsPerToken()).isEqualTo(1_000_000);
        assertThat(limit.refillUnitsPerMicro()).isEqualTo(3);
        assertThat(limit.fillMicros()).isEqualTo(1_666_667); // ceil(5e6 / 3)
    }

    @Test
    void convertsFractionalRatesPerSecondExactly() {
        assertThat(Limit.perSecond(new BigDecimal("0.5"), 1)).isEqualTo(Limit.of(1, 1, Duration.ofSeconds(2)));
        assertThat(Limit.perSecond(new BigDecimal("2.50"), 5)).isEqualTo(Limit.of(5, 5, Duration.ofSeconds(2)));
        assertThat(Limit.perSecond(new BigDecimal("1E+3"), 5)).isEqualTo(Limit.of(5, 1000, Duration.ofSeconds(1)));
        assertThat(Limit.perSecond(new BigDecimal("0.000001"), 1).period()).isEqualTo(Duration.ofSeconds(1_000_000));
        assertThat(Limit.perSecond(new BigDecimal("0.1"), 1).toString()).isEqualTo("1/10s burst 1");
    }

    @Test
    void namesTheFieldAndValueOfEveryBadDefinition() {
        assertThatThrownBy(() -> Limit.of(0, 10, Duration.ofSeconds(1)))
                .isInstanceOf(InvalidDefinitionException.class).hasMessage("burst = 0: must be at least 1");
        assertThatThrownBy(() -> Limit.of(10, 0, Duration.ofSeconds(1)))
                .hasMessage("rate = 0: must be greater than 0");
        assertThatThrownBy(() -> Limit.of(10, -3, Duration.ofSeconds(1)))
                .hasMessage("rate = -3: must be greater than 0");
        assertThatThrownBy(() -> Limit.of(10, 1, Duration.ZERO))
                .hasMessage("period = PT0S: must be positive");
        assertThatThrownBy(() -> Limit.of(10, 1, Duration.ofNanos(1500)))
                .hasMessage("period = PT0.0000015S: must be a whole number of microseconds");
        assertThatThrownBy(() -> Limit.of(10, 1, Duration.ofDays(3651)))
                .hasMessage("period = PT87624H: must be at most 3650 days");
        assertThatThrownBy(() -> Limit.perSecond(new BigDecimal("-1"), 10))
                .hasMessage("rate = -1: must be greater than 0");
        assertThatThrownBy(() -> Limit.perSecond(BigDecimal.ZERO, 10))
                .hasMessage("rate = 0: must be greater than 0");
        assertThatThrownBy(() -> Limit.perSecond(new BigDecimal("0.0000000000001"), 10))
                .hasMessage("rate = 0.0000000000001: must have at most 12 decimal places");
        assertThatThrownBy(() -> Limit.perSecond(new BigDecimal("0.000000001"), 10))
                .hasMessage("rate = 0.000000001: is too slow: must be at least 1 token per 3650 days");
    }

    @Test
    void refusesLimitsWhoseArithmeticWouldOverflow() {
        // one token per 10 years is 3.15e14 µs per token: a burst of 10^5 already needs 3e19 units
        assertThatThrownBy(() -> Limit.of(100_000, 1, Duration.ofDays(3650)))
                .isInstanceOf(InvalidDefinitionException.class)
                .hasMessageStartingWith("burst = 100000: too large for a refill of 1/3650d");
        assertThatThrownBy(() -> Limit.of(Long.MAX_VALUE, 1, Duration.ofSeconds(1)))
                .hasMessageStartingWith("burst = " + Long.MAX_VALUE + ": too large");
        assertThatThrownBy(() -> Limit.of(1, Long.MAX_VALUE, Duration.ofSeconds(1)))
                .hasMessage("rate = " + Long.MAX_VALUE + ": must be at most 2^61 tokens per period");
        // the largest still accepted work
        Limit huge = Limit.of(1L << 40, 1_000_000_000L, Duration.ofSeconds(1));
        assertThat(huge.fillMicros()).isEqualTo(1_099_511_628L); // ceil(2^40 / 1000)
    }

    @Test
    void aShareDividesTheBurstAndTheRateByTheParts() {
        Limit limit = Limit.of(10, 10, Duration.ofSeconds(1));
        assertThat(limit.share(1)).isSameAs(limit);
        assertThat(limit.share(2)).isEqualTo(Limit.of(5, 10, Duration.ofSeconds(2)));
        assertThat(limit.share(3)).hasToString("10/3s burst 3");
        assertThat(limit.share(20).burst()).as("at least one token").isEqualTo(1);
        // three shares never refill faster than the limit: 3 x 10/3s = 10/s
        assertThat(3 * limit.share(3).refillUnitsPerMicro() * limit.unitsPerToken())
                .isEqualTo(limit.refillUnitsPerMicro() * limit.share(3).unitsPerToken());
        Limit slow = Limit.of(100, 100, Limit.MAX_PERIOD);
        assertThat(slow.share(4)).as("a period that cannot grow: fewer tokens").isEqualTo(Limit.of(25, 25, Limit.MAX_PERIOD));
        assertThatThrownBy(() -> limit.share(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("parts = 0");
    }
}
