/* COpenCV carries `pkg-config opencv4` flags to the C++ layer; Swift never imports OpenCV directly. */
