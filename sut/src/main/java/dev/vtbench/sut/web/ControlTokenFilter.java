package dev.vtbench.sut.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The control endpoints ({@code /bench/job/*}: a job starts up to 2,000,000 threads) answer only the
 * holder of the run's token, whatever address the SUT listens on (issue 34): the harness makes one
 * per run and gives it to this JVM in its environment ({@code VTBENCH_CONTROL_TOKEN}, which Spring
 * reads as {@link #PROPERTY}), never on the command line, and sends it in the {@link #HEADER}
 * header (src/adapters/process/control-token.ts). Without the header, or with another value: 401. A SUT started
 * without a token refuses every control call (403). Every other path is left as it is.
 */
@Component
public class ControlTokenFilter extends OncePerRequestFilter {

    /** The request header that carries the token. */
    public static final String HEADER = "X-Vtbench-Token";
    /** The property of the token; from the environment variable {@code VTBENCH_CONTROL_TOKEN}. */
    public static final String PROPERTY = "vtbench.control.token";

    private final byte[] token;

    public ControlTokenFilter(Environment env) {
        String t = env.getProperty(PROPERTY);
        this.token = t == null || t.isEmpty() ? null : t.getBytes(StandardCharsets.UTF_8);
    }

    /** Whether a request path (servlet path, decoded and normalised) is a control endpoint. */
    static boolean isControlPath(String path) {
        return path != null && (path.equals("/bench/job") || path.startsWith("/bench/job/"));
    }

    private static String pathOf(HttpServletRequest req) {
        String servletPath = req.getServletPath() == null ? "" : req.getServletPath();
        String info = req.getPathInfo() == null ? "" : req.getPathInfo();
        String p = servletPath + info;
        return p.isEmpty() ? req.getRequestURI() : p;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest req) {
        return !isControlPath(pathOf(req));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest req, HttpServletResponse res, FilterChain chain)
            throws ServletException, IOException {
        if (token == null) {
            refuse(res, HttpServletResponse.SC_FORBIDDEN, "control calls are refused: this SUT was started without VTBENCH_CONTROL_TOKEN in its environment");
            return;
        }
        String given = req.getHeader(HEADER);
        if (given == null || !MessageDigest.isEqual(token, given.getBytes(StandardCharsets.UTF_8))) {
            refuse(res, HttpServletResponse.SC_UNAUTHORIZED, "control call without the run's token (header " + HEADER + ")");
            return;
        }
        chain.doFilter(req, res);
    }

    private static void refuse(HttpServletResponse res, int status, String message) throws IOException {
        res.setStatus(status);
        res.setContentType("application/json");
        res.setCharacterEncoding("UTF-8");
        res.getWriter().write("{\"error\":\"" + message.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}");
    }
}
