package org.apache.coyote;

import java.util.Map;

/** Test stand-in for Tomcat's org.apache.coyote.Request: only what the agent calls (getHeader). */
public final class Request {
  private final Map<String, String> headers;

  public Request(Map<String, String> headers) {
    this.headers = headers;
  }

  public String getHeader(String name) {
    return headers.get(name);
  }
}
