package io.tollgate.internal.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Query parameters of a servlet request, read from the query string alone, decoded as JAX-RS decodes them. */
class ServletRequestViewTest {

    @Test
    void parametersAreDecodedAndRepeatedOnesKeptInOrder() {
        Map<String, List<String>> query = ServletRequestView.parse("a=1&b=x%20y&a=2&c=p+q&flag&=v&d=");
        assertThat(query.get("a")).containsExactly("1", "2");
        assertThat(query.get("b")).containsExactly("x y");
        assertThat(query.get("c")).containsExactly("p q");
        assertThat(query.get("flag")).containsExactly("");
        assertThat(query.get("d")).containsExactly("");
        assertThat(query.get("")).containsExactly("v");
    }

    @Test
    void aMalformedEscapeIsKeptAsSentAndNothingIsThrown() {
        assertThat(ServletRequestView.parse("k=%zz&j=%E0%A4").get("k")).containsExactly("%zz");
        assertThat(ServletRequestView.parse(null)).isEmpty();
        assertThat(ServletRequestView.parse("")).isEmpty();
        assertThat(ServletRequestView.parse("&&")).isEmpty();
    }
}
