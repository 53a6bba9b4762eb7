package io.tollgate.internal.request;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The path rules and path keys see: the path as the JAX-RS runtime routes it, one form for every way of writing it. */
class RequestPathsTest {

    private static String fromSegments(String... decodedSegments) {
        return RequestPaths.canonical(Arrays.asList(decodedSegments));
    }

    @Test
    void segmentsAreJoinedWithoutTheEmptyOnes() {
        assertThat(fromSegments("items", "42")).isEqualTo("/items/42");
        assertThat(fromSegments("items", "42", "")).as("a trailing slash").isEqualTo("/items/42");
        assertThat(fromSegments("items", "", "42")).as("a double slash").isEqualTo("/items/42");
        assertThat(fromSegments("", "items", "42")).isEqualTo("/items/42");
        assertThat(fromSegments()).isEqualTo("/");
        assertThat(fromSegments("")).isEqualTo("/");
    }

    @Test
    void anEncodedSlashStaysInItsSegmentAndCannotPassForTwo() {
        assertThat(fromSegments("items", "a/b")).isEqualTo("/items/a%2Fb").isNotEqualTo(fromSegments("items", "a", "b"));
        assertThat(fromSegments("items", "a%2Fb")).as("a literal percent sign").isEqualTo("/items/a%252Fb")
                .isNotEqualTo(fromSegments("items", "a/b"));
        assertThat(fromSegments("items", "100%")).isEqualTo("/items/100%25");
    }

    @Test
    void whatASegmentDecodedToIsKeptAsIs() {
        // ';' and spaces that were sent encoded are part of the segment, as the runtime hands them to @PathParam
        assertThat(fromSegments("items", "a;m=1")).isEqualTo("/items/a;m=1");
        assertThat(fromSegments("items", "a b")).isEqualTo("/items/a b");
    }

    @ParameterizedTest
    @CsvSource({
            "/items/42,       /items/42",
            "/items/42/,      /items/42",
            "//items//42,     /items/42",
            "/,               /",
            "'',              /",
            "/items/100%,     /items/100%25"})
    void aServletPathIsSplitAtEverySlash(String decodedPath, String canonical) {
        assertThat(RequestPaths.canonical(decodedPath)).isEqualTo(canonical);
    }

    @Test
    void theRootWithoutAPathIsTheRoot() {
        assertThat(RequestPaths.canonical((String) null)).isEqualTo("/");
        assertThat(RequestPaths.canonical(List.of("a"))).isEqualTo("/a");
    }

    @ParameterizedTest
    @CsvSource({
            "items/a%2Fb,            /items/a%2Fb",
            "items/a%2fb;m=1/,       /items/a%2Fb",
            "%69tems/a%2Fb,          /items/a%2Fb",
            "x/../items/./a%2Fb,     /items/a%2Fb",
            "../items/a%2Fb,         /items/a%2Fb",
            "items/a+b%2F%25,        /items/a+b%2F%25"})
    void aPathAsSentIsSplitThenDecodedSegmentBySegment(String rawPath, String canonical) {
        assertThat(RequestPaths.hasEncodedSlash(rawPath)).isTrue();
        assertThat(RequestPaths.canonical(RequestPaths.decodedSegments(rawPath))).isEqualTo(canonical);
    }

    @Test
    void onlyAnEncodedSlashMakesThePathBeReadAsSent() {
        assertThat(RequestPaths.hasEncodedSlash("items/a%2Eb")).isFalse();
        assertThat(RequestPaths.hasEncodedSlash("items/a/b")).isFalse();
    }
}
