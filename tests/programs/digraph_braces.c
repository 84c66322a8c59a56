/* Digraphs (<% %> for braces, <: :> for brackets) are C: ripper's edits
 * of an async function's body must take the two-byte braces whole. */
#include <stdio.h>
#include <rip.h>

static int sum(int n) <%
    int a<:4:> = <% 1, 2, 3, 4 %>, s = 0;
    for (int i = 0; i < n; i++) <%
        rip_yield();
        s += a<:i % 4:>;
    %>
    if (s > 5) <% rip_yield(); %>
    return s;
%>

static void task(void *arg) <%
    (void)arg;
    printf("%d\n", sum(6));
%>

int main(void) <% return rip_run(task, NULL); %>
