package dev.vtbench.sut.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/** Issue 34, defect 6: the SUT's control endpoints need the run's token, whatever the address. */
class ControlTokenFilterTest {

    private static MockHttpServletResponse call(String token, String path, String header) throws Exception {
        MockEnvironment env = new MockEnvironment();
        if (token != null) env.setProperty(ControlTokenFilter.PROPERTY, token);
        MockHttpServletRequest req = new MockHttpServletRequest("POST", path);
        req.setServletPath(path);
        if (header != null) req.addHeader(ControlTokenFilter.HEADER, header);
        MockHttpServletResponse res = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();
        new ControlTokenFilter(env).doFilter(req, res, chain);
        if (chain.getRequest() != null) res.setStatus(299); // reached the endpoint
        return res;
    }

    @Test
    void aJobCallWithoutTheTokenOrWithAnotherIsRefused401() throws Exception {
        assertEquals(401, call("tok-123", "/bench/job/vt-sweep", null).getStatus());
        assertEquals(401, call("tok-123", "/bench/job/vt-sweep", "tok-124").getStatus());
        assertEquals(401, call("tok-123", "/bench/job/async-burst", "").getStatus());
        assertTrue(call("tok-123", "/bench/job/vt-sweep", null).getContentAsString().contains(ControlTokenFilter.HEADER));
    }

    @Test
    void aJobCallWithTheTokenReachesTheEndpoint() throws Exception {
        assertEquals(299, call("tok-123", "/bench/job/vt-sweep", "tok-123").getStatus());
    }

    @Test
    void aSutStartedWithoutATokenRefusesEveryControlCall403() throws Exception {
        MockHttpServletResponse r = call(null, "/bench/job/vt-sweep", "anything");
        assertEquals(403, r.getStatus());
        assertTrue(r.getContentAsString().contains("VTBENCH_CONTROL_TOKEN"), r.getContentAsString());
        assertEquals(403, call("", "/bench/job/async-burst", null).getStatus());
    }

    @Test
    void otherPathsAreLeftAsTheyAre() throws Exception {
        assertEquals(299, call("tok-123", "/api/benchmark/llm", null).getStatus());
        assertEquals(299, call("tok-123", "/bench/info", null).getStatus());
        assertEquals(299, call(null, "/bench/samples", null).getStatus());
        assertTrue(ControlTokenFilter.isControlPath("/bench/job"));
        assertFalse(ControlTokenFilter.isControlPath("/bench/jobs"));
        assertFalse(ControlTokenFilter.isControlPath(null));
    }
}
