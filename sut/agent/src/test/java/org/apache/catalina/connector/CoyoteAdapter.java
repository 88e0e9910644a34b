package org.apache.catalina.connector;

import org.apache.coyote.Request;
import org.apache.coyote.Response;

/**
 * Test stand-in for Tomcat's CoyoteAdapter with the same name and service(Request, Response) signature, so
 * that the agent's real matcher and advice are exercised: service() runs the given body as the "servlet".
 */
public final class CoyoteAdapter {
  private final Runnable body;

  public CoyoteAdapter(Runnable body) {
    this.body = body;
  }

  public void service(Request req, Response res) throws Exception {
    body.run();
  }
}
