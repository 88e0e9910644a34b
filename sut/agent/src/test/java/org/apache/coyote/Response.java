package org.apache.coyote;

/** Test stand-in for Tomcat's org.apache.coyote.Response. */
public final class Response {}
