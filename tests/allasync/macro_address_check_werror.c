/* checks: a macro that compares its argument with NULL, given an array (cJSON's tests pass `cJSON item[1]` to cJSON_SetNumberValue), builds under -Wall -Werror as the plain build does: gcc does not warn inside macro expansions */
/* known bug: ripcc compiles ripper's output as preprocessed text, where gcc no longer knows the comparison came from a macro, so -Waddress ("the address of 'x' will never be NULL") fires in the ripped and the plain definition alike; gcc -E then cc -c of the plain source shows the same */
/* cflags: -Wall -Werror */
#include <stdio.h>

#define VALID(p) ((p) != NULL)

int main(void)
{
    int x[1] = {3};
    if (VALID(x))
        printf("%d\n", x[0]);
    return 0;
}
