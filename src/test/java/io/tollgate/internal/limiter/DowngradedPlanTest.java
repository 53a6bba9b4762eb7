package io.tollgate.internal.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.internal.config.BucketLimits;
import io.tollgate.internal.config.ConfigReader;
import io.tollgate.internal.config.LiveRule;
import io.tollgate.internal.config.Settings;
import io.tollgate.internal.store.InMemoryBucketStore;
import io.tollgate.testing.FakeRequest;
import io.tollgate.testing.TestClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A request's own limits ({@code limits-from}) that got stricter, on the in-memory store with a fake clock: the
 * bucket the old plan drained is kept until the new plan has refilled it, not dropped when the old plan would have.
 */
class DowngradedPlanTest {

    private final TestClock clock = new TestClock(1_800_000_000_000_000L);
    private final Limiter limiter = new Limiter(new InMemoryBucketStore(clock, 1000), Duration.ofSeconds(1));
    private final LiveRule live = ConfigReader.read(Settings.of(Map.of("tollgate.config.refresh", "off",
            "tollgate.rules.plans.rate", "1/1h", "tollgate.rules.plans.limits-from", "jwt:plan",
            "tollgate.rules.plans.max-limit", "1000/1s burst 1000")), List.of()).rule("plans").live();

    private BucketLimits plan(String limits) {
        return live.limits("client", FakeRequest.request().claim("plan", limits).incoming());
    }

    @Test
    void aBucketDrainedUnderTheOldPlanStaysDrainedUnderTheStricterOne() {
        BucketLimits pro = plan("100/1s burst 100");
        BucketLimits basic = plan("1/1h burst 100");
        assertThat(pro.text()).isEqualTo("100/1s burst 100");
        assertThat(limiter.check(live, pro, "client", 100).allowed()).isTrue();
        assertThat(limiter.check(live, basic, "client", 1).allowed()).as("the first request on the basic plan").isFalse();
        clock.advance(Duration.ofSeconds(5)); // the pro plan would have refilled it in 1 s
        int granted = 0;
        for (int i = 0; i < 10; i++) {
            granted += limiter.check(live, basic, "client", 1).allowed() ? 1 : 0;
        }
        assertThat(granted).as("5 s at 1/h").isZero();
        clock.advance(Duration.ofHours(1));
        assertThat(limiter.check(live, basic, "client", 1).allowed()).isTrue();
        assertThat(limiter.check(live, basic, "client", 1).allowed()).isFalse();
    }
}
