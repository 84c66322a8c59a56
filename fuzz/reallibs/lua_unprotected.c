/* lua_unprotected.c -- fuzz/real_libs.py's Lua driver: runs the script named
   by argv[1] with lua_call, not lua_pcall, in one translation unit with all
   of Lua (onelua.c).  Under --all-async a protected call runs plain (its
   setjmp keeps luaD_rawrunprotected plain, and it calls through a function
   pointer), so the standalone interpreter runs almost none of Lua ripped;
   here the virtual machine, tables, strings and the collector run ripped
   for everything the script does outside pcall and C functions.  An error
   reaches the panic function and aborts, in both builds alike.  Lua seeds
   math.random from the clock and the address of its state (ASLR): the
   driver seeds it with 0, so that a script drawing numbers (constructs.lua
   picks a branch by math.random(0, 1)) prints the same in both builds. */
#define MAKE_LIB
#include "onelua.c"

int main(int argc, char **argv)
{
    lua_State *L = luaL_newstate();
    int i;
    if (argc < 2) {
        fprintf(stderr, "usage: %s SCRIPT [ARGS]\n", argv[0]);
        return 2;
    }
    luaL_openlibs(L);
    lua_getglobal(L, "math");
    lua_getfield(L, -1, "randomseed");
    lua_pushinteger(L, 0);
    lua_call(L, 1, 0);
    lua_pop(L, 1);
    lua_createtable(L, argc, 0);
    for (i = 0; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, i - 1);
    }
    lua_setglobal(L, "arg");
    if (luaL_loadfile(L, argv[1]) != LUA_OK) {
        fprintf(stderr, "%s\n", lua_tostring(L, -1));
        return 1;
    }
    lua_call(L, 0, 0);
    lua_close(L);
    return 0;
}
