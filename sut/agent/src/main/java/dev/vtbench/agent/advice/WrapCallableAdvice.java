package dev.vtbench.agent.advice;

import dev.vtbench.agent.boot.Recorder;
import java.util.concurrent.Callable;
import net.bytebuddy.asm.Advice;

/** Inlined at the start of submit(Callable): replaces the task argument by its timed wrapper. */
public final class WrapCallableAdvice {
  private WrapCallableAdvice() {}

  @Advice.OnMethodEnter(suppress = Throwable.class)
  public static void enter(@Advice.This Object executor, @Advice.Argument(value = 0, readOnly = false) Callable<?> task) {
    task = Recorder.wrapCallable(task, executor);
  }
}
