/**
 * Precompiled abstract aspects for measuring without code generation: name one of them in a
 * {@code <concrete-aspect>} of a plain {@code META-INF/aop.xml}, give its abstract {@code scope()}
 * pointcut an expression, and run with the AspectJ weaver agent.
 *
 * <pre>{@code
 * <aspectj>
 *   <aspects>
 *     <concrete-aspect name="com.acme.dyper.Timing" extends="org.dyper.aspects.TimingAspect">
 *       <pointcut name="scope" expression="execution(* com.acme..*(..))"/>
 *     </concrete-aspect>
 *   </aspects>
 *   <weaver><include within="com.acme..*"/></weaver>
 * </aspectj>
 * }</pre>
 *
 * <p>A complete, commented example is in this jar at {@code META-INF/dyper/aop-example.xml}.
 *
 * <ul>
 *   <li>{@link org.dyper.aspects.CountingAspect}: executions per method ({@code Counting}).</li>
 *   <li>{@link org.dyper.aspects.TimingAspect}: count, total, min, max and histogram per method,
 *       exceptional exits included ({@code Timing}).</li>
 *   <li>{@link org.dyper.aspects.SampledTimingAspect}: exact counts, one call in
 *       {@code dyper.sample.every} per thread timed ({@code SampledTiming}).</li>
 * </ul>
 *
 * <p>Each aspect measures the method and constructor executions in its scope and never Dyper's own
 * code. Sites are registered at run time ({@code Sites.register}, negative ids) and named
 * {@code class.method(parameter types)}, constructors {@code <init>}. A failing runtime call is
 * reported through {@code Dyper.hookFailed} and never reaches the application.
 *
 * <p>These aspects are the convenience path: they find a call's site id through its
 * {@code thisJoinPointStaticPart} (an identity lookup per call) and the around advice builds a
 * {@code ProceedingJoinPoint} per call, so they cost more per call than the advice Dyper generates
 * from a patch model, which carries its site id as a constant. The timing aspects time constructors
 * with before and after advice and a per-thread stack (a thread-local lookup per call), because around
 * advice moves a constructor's body out of {@code <init>} and the JVM then rejects its writes to final
 * fields ({@code IllegalAccessError} on Java 9+ class files).
 */
package org.dyper.aspects;
