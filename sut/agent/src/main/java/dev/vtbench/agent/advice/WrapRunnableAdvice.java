package dev.vtbench.agent.advice;

import dev.vtbench.agent.boot.Recorder;
import net.bytebuddy.asm.Advice;

/** Inlined at the start of execute(Runnable)-like methods: replaces the task argument by its timed wrapper. */
public final class WrapRunnableAdvice {
  private WrapRunnableAdvice() {}

  @Advice.OnMethodEnter(suppress = Throwable.class)
  public static void enter(@Advice.This Object executor, @Advice.Argument(value = 0, readOnly = false) Runnable task) {
    task = Recorder.wrap(task, executor);
  }
}
