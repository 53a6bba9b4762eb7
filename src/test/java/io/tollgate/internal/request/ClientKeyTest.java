package io.tollgate.internal.request;

import static io.tollgate.testing.FakeRequest.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.testing.FakeRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code key=ip}: an IPv4 client by its address, an IPv6 client by its network (a /64 unless configured). */
class ClientKeyTest {

    private static String keyOf(String peer, int prefix) {
        FakeRequest view = request().from(peer);
        return new IncomingRequest(view, TrustedProxies.NONE, prefix).clientKey();
    }

    @ParameterizedTest
    @CsvSource({
            "203.0.113.7,                          64,  203.0.113.7",
            "2001:db8:1:2:3:4:5:6,                 64,  2001:db8:1:2::/64",
            "2001:db8:1:2:ffff:ffff:ffff:ffff,     64,  2001:db8:1:2::/64",
            "2001:0DB8:0001:0002:0000:0000:0000:9, 64,  2001:db8:1:2::/64",
            "2001:db8:1:2:3:4:5:6,                 48,  2001:db8:1::/48",
            "2001:db8:1:2:3:4:5:6,                 56,  2001:db8:1::/56",
            "2001:db8:1:2ff:3:4:5:6,               56,  2001:db8:1:200::/56",
            "2001:db8:1:2:3:4:5:6,                 128, 2001:db8:1:2:3:4:5:6",
            "::ffff:203.0.113.7,                   64,  203.0.113.7",
            "not-an-address,                       64,  not-an-address"})
    void anIpv6ClientIsKeyedByItsPrefix(String peer, int prefix, String key) {
        assertThat(keyOf(peer, prefix)).isEqualTo(key);
    }

    @Test
    void aClientRotatingAddressesWithinItsSlash64KeepsOneBucketAndItsNeighbourHasAnother() {
        String first = keyOf("2001:db8:aa:bb::1", 64);
        for (int i = 2; i < 200; i++) {
            assertThat(keyOf("2001:db8:aa:bb:" + Integer.toHexString((i * 7919) & 0xffff) + "::" + Integer.toHexString(i), 64))
                    .isEqualTo(first);
        }
        assertThat(keyOf("2001:db8:aa:bc::1", 64)).isNotEqualTo(first);
    }

    @Test
    void theDefaultIsASlash64() {
        FakeRequest view = request().from("2001:db8:5:6:7:8:9:a");
        assertThat(new IncomingRequest(view, TrustedProxies.NONE).clientKey()).isEqualTo("2001:db8:5:6::/64");
    }
}
