package dev.vtbench.agent.advice;

import dev.vtbench.agent.boot.Recorder;
import net.bytebuddy.asm.Advice;

/** Around CoyoteAdapter.service(org.apache.coyote.Request, org.apache.coyote.Response): the request's id and service time. */
public final class ServiceAdvice {
  private ServiceAdvice() {}

  @Advice.OnMethodEnter(suppress = Throwable.class)
  public static Object enter(@Advice.Argument(0) Object request) {
    return Recorder.beginService(request);
  }

  @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
  public static void exit(@Advice.Enter Object scope) {
    Recorder.endService(scope);
  }
}
