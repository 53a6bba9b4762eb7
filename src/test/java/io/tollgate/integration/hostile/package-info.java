/**
 * Hostile input, generated rather than hand-picked (seeded; see {@link io.tollgate.testing.Fuzz}), over
 * the real HTTP stack and the Hazelcast store: stated costs ({@code StatedCostTest}), forwarding
 * headers from untrusted peers and chains from trusted proxies ({@code UntrustedForwardingTest},
 * {@code TrustedProxyChainTest}), bearer tokens ({@code BearerTokenTest}) and keys
 * ({@code HostileKeyTest}) that no polite client sends. Each case is judged by an oracle written from
 * the README, independently of the code ({@code ExpectedBuckets}): a bad request is never a 5xx and
 * never a free pass, which the tests prove by counting the tokens of every bucket involved. Requests
 * go over a plain socket ({@code HostileApp}), so control characters, raw bytes and repeated headers
 * reach the server as generated. CR and LF are left out: in a header value they end the line, which
 * makes another header line (or a malformed request) rather than another value.
 */
package io.tollgate.integration.hostile;
