package io.tollgate.internal.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code tollgate.trusted-proxies}: the addresses and ranges whose forwarding headers are believed. */
class TrustedProxiesTest {

    private static TrustedProxies proxies(String... entries) {
        return TrustedProxies.parse(List.of(entries));
    }

    @Test
    void containsAddressesInItsRanges() {
        TrustedProxies trusted = proxies("10.0.0.0/8", "192.168.1.1", "172.16.0.0/12", "fd00::/8", "2001:db8::1");
        assertThat(trusted.isEmpty()).isFalse();
        assertThat(trusted.contains("10.0.0.0")).isTrue();
        assertThat(trusted.contains("10.255.255.255")).isTrue();
        assertThat(trusted.contains("11.0.0.0")).isFalse();
        assertThat(trusted.contains("192.168.1.1")).isTrue();
        assertThat(trusted.contains("192.168.1.2")).isFalse();
        assertThat(trusted.contains("172.31.255.255")).isTrue();
        assertThat(trusted.contains("172.32.0.0")).isFalse();
        assertThat(trusted.contains("172.15.255.255")).isFalse();
        assertThat(trusted.contains("fd12:3456::1")).isTrue();
        assertThat(trusted.contains("fe80::1")).isFalse();
        assertThat(trusted.contains("2001:0db8:0:0:0:0:0:1")).isTrue();
        assertThat(trusted.contains("2001:db8::2")).isFalse();
    }

    @Test
    void ipv4AndIpv6RangesNeverContainEachOther() {
        assertThat(proxies("0.0.0.0/0").contains("203.0.113.1")).isTrue();
        assertThat(proxies("0.0.0.0/0").contains("2001:db8::1")).isFalse();
        assertThat(proxies("::/0").contains("2001:db8::1")).isTrue();
        assertThat(proxies("::/0").contains("203.0.113.1")).isFalse();
    }

    @Test
    void anIpv4MappedAddressIsTheIpv4Address() {
        assertThat(proxies("10.0.0.0/8").contains("::ffff:10.1.2.3")).isTrue();
        assertThat(proxies("::ffff:10.1.2.3").contains("10.1.2.3")).isTrue();
    }

    @Test
    void hostBitsOfARangeDoNotMatter() {
        assertThat(proxies("10.1.2.3/8").contains("10.9.9.9")).isTrue();
    }

    @Test
    void containsNothingThatIsNotAnAddress() {
        TrustedProxies trusted = proxies("0.0.0.0/0", "::/0");
        assertThat(trusted.contains("")).isFalse();
        assertThat(trusted.contains("unknown")).isFalse();
        assertThat(trusted.contains("localhost")).isFalse();
        assertThat(trusted.contains("10.0.0.1:80")).isFalse();
        assertThat(trusted.contains(null)).isFalse();
    }

    @Test
    void anEmptyListTrustsNobody() {
        assertThat(proxies(" ", "")).isSameAs(TrustedProxies.NONE);
        assertThat(TrustedProxies.NONE.isEmpty()).isTrue();
        assertThat(TrustedProxies.NONE.contains("127.0.0.1")).isFalse();
    }

    @ParameterizedTest(name = "proxy {0}")
    @CsvSource(delimiter = '|', value = {
        "10.0.0.0/33          | '10.0.0.0/33' has a prefix length outside 0..32",
        "10.0.0.0/-1          | '10.0.0.0/-1' has a prefix length outside 0..32",
        "10.0.0.0/            | '10.0.0.0/' has a prefix length outside 0..32",
        "10.0.0.0/8/8         | '10.0.0.0/8/8' has a prefix length outside 0..32",
        "fd00::/129           | 'fd00::/129' has a prefix length outside 0..128",
        "example.com          | 'example.com' is not an IP address or CIDR range",
        "example.com/8        | 'example.com/8' is not an IP address or CIDR range",
        "10.0.0.256           | '10.0.0.256' is not an IP address or CIDR range",
        "10.0.0               | '10.0.0' is not an IP address or CIDR range",
        "fd00:::1             | 'fd00:::1' is not an IP address or CIDR range",
        "fe80::1%eth0         | 'fe80::1%eth0' is not an IP address or CIDR range",
    })
    void refusesAnEntryThatIsNotAnAddressOrRange(String entry, String message) {
        assertThatThrownBy(() -> proxies("127.0.0.1", entry))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }
}
