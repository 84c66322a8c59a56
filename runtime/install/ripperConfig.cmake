# find_package(ripper): the ripper runtime's libraries as imported targets,
# ripper::rip, ripper::ucontext and ripper::threads (static; make install
# puts shared ones beside them).  ucontext and threads build plain C;
# code for ripper::rip must be ripped first (ripcc).
get_filename_component(_ripper_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
include(CMakeFindDependencyMacro)
find_dependency(Threads)
foreach(_ripper_backend rip ucontext threads)
  if(NOT TARGET ripper::${_ripper_backend})
    add_library(ripper::${_ripper_backend} STATIC IMPORTED)
    set_target_properties(ripper::${_ripper_backend} PROPERTIES
      IMPORTED_LOCATION "${_ripper_prefix}/lib/librip-${_ripper_backend}.a"
      INTERFACE_INCLUDE_DIRECTORIES "${_ripper_prefix}/include"
      INTERFACE_LINK_LIBRARIES Threads::Threads)
  endif()
endforeach()
set_property(TARGET ripper::ucontext PROPERTY INTERFACE_COMPILE_DEFINITIONS RIP_BACKEND_UCONTEXT)
set_property(TARGET ripper::threads PROPERTY INTERFACE_COMPILE_DEFINITIONS RIP_BACKEND_THREADS)
unset(_ripper_backend)
unset(_ripper_prefix)
