//! A small Vulkan compute runner (ash) for the lavapipe oracle: it runs a SPIR-V compute shader
//! with the same job model as `spvkit run` (buffers by set/binding as storage or uniform
//! descriptors, push constants, spec constants, dispatch) and returns the buffers in the same
//! typed form, so that tests can compare the two byte for byte.
//!
//! Include it with `#[path = "support/vulkan.rs"] mod vulkan;`. It prefers a CPU device
//! (llvmpipe); every Vulkan object it creates is destroyed before `run` returns.
#![allow(dead_code)]

use ash::vk;
use spvkit::run::job::{BufferKind, Job};
use spvkit::run::output::{BufferId, OutputBuffer};
use spvkit::run::RunOutput;
use std::ffi::CString;

/// A Vulkan instance and device with one compute queue.
pub struct Vulkan {
    _entry: ash::Entry,
    instance: ash::Instance,
    physical: vk::PhysicalDevice,
    device: ash::Device,
    queue: vk::Queue,
    family: u32,
    /// The device's name (`llvmpipe (...)` for lavapipe).
    pub device_name: String,
}

impl Vulkan {
    /// Opens the first CPU device (lavapipe), or the first device with a compute queue.
    pub fn new() -> Result<Vulkan, String> {
        // SAFETY: loading the system Vulkan loader; nothing else runs in it yet.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| format!("no Vulkan loader: {e}"))?;
        let app = vk::ApplicationInfo::default()
            .application_name(c"spvkit-tests")
            .api_version(vk::API_VERSION_1_2);
        let info = vk::InstanceCreateInfo::default().application_info(&app);
        // SAFETY: valid create info.
        let instance = unsafe { entry.create_instance(&info, None) }
            .map_err(|e| format!("vkCreateInstance: {e}"))?;
        match Self::open_device(entry.clone(), &instance) {
            Ok((physical, device, family, device_name)) => {
                // SAFETY: family has a queue 0 (we asked for one).
                let queue = unsafe { device.get_device_queue(family, 0) };
                Ok(Vulkan {
                    _entry: entry,
                    instance,
                    physical,
                    device,
                    queue,
                    family,
                    device_name,
                })
            }
            Err(e) => {
                // SAFETY: nothing created from the instance survives.
                unsafe { instance.destroy_instance(None) };
                Err(e)
            }
        }
    }

    fn open_device(
        _entry: ash::Entry,
        instance: &ash::Instance,
    ) -> Result<(vk::PhysicalDevice, ash::Device, u32, String), String> {
        // SAFETY: a live instance.
        let devices = unsafe { instance.enumerate_physical_devices() }
            .map_err(|e| format!("vkEnumeratePhysicalDevices: {e}"))?;
        let mut candidates = Vec::new();
        for pd in devices {
            // SAFETY: pd comes from this instance.
            let props = unsafe { instance.get_physical_device_properties(pd) };
            // SAFETY: as above.
            let families = unsafe { instance.get_physical_device_queue_family_properties(pd) };
            let Some(family) = families
                .iter()
                .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
            else {
                continue;
            };
            let name = props
                .device_name_as_c_str()
                .map(|c| c.to_string_lossy().into_owned())
                .unwrap_or_default();
            let cpu = props.device_type == vk::PhysicalDeviceType::CPU;
            candidates.push((!cpu, pd, family as u32, name));
        }
        candidates.sort_by_key(|c| c.0);
        let (_, pd, family, name) = candidates
            .into_iter()
            .next()
            .ok_or("no Vulkan device with a compute queue")?;
        // Enable every feature the device has (8/16/64-bit types, ...): the corpus uses many.
        let mut f11 = vk::PhysicalDeviceVulkan11Features::default();
        let mut f12 = vk::PhysicalDeviceVulkan12Features::default();
        let mut features = vk::PhysicalDeviceFeatures2::default()
            .push_next(&mut f11)
            .push_next(&mut f12);
        // SAFETY: pd is valid; the chain is well formed.
        unsafe { instance.get_physical_device_features2(pd, &mut features) };
        let priorities = [1.0f32];
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(family)
            .queue_priorities(&priorities)];
        let info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .push_next(&mut features);
        // SAFETY: valid create info; features are the device's own.
        let device = unsafe { instance.create_device(pd, &info, None) }
            .map_err(|e| format!("vkCreateDevice: {e}"))?;
        Ok((pd, device, family, name))
    }

    /// The 16-bit features the device lacks among `shaderFloat16`, `shaderInt16`,
    /// `storageBuffer16BitAccess` and `uniformAndStorageBuffer16BitAccess` (all are enabled
    /// when present): a test of 16-bit code asserts that this is empty rather than skip.
    pub fn missing_16bit_features(&self) -> Vec<&'static str> {
        let mut f11 = vk::PhysicalDeviceVulkan11Features::default();
        let mut f12 = vk::PhysicalDeviceVulkan12Features::default();
        let mut features = vk::PhysicalDeviceFeatures2::default()
            .push_next(&mut f11)
            .push_next(&mut f12);
        // SAFETY: the physical device comes from this instance; the chain is well formed.
        unsafe {
            self.instance
                .get_physical_device_features2(self.physical, &mut features)
        };
        let int16 = features.features.shader_int16;
        let (float16, sb16, ub16) = (
            f12.shader_float16,
            f11.storage_buffer16_bit_access,
            f11.uniform_and_storage_buffer16_bit_access,
        );
        [
            (float16, "shaderFloat16"),
            (int16, "shaderInt16"),
            (sb16, "storageBuffer16BitAccess"),
            (ub16, "uniformAndStorageBuffer16BitAccess"),
        ]
        .into_iter()
        .filter(|(on, _)| *on != vk::TRUE)
        .map(|(_, name)| name)
        .collect()
    }

    /// Runs `spirv` as `job` says; returns every job buffer after the dispatch.
    pub fn run(&self, spirv: &[u32], job: &Job) -> Result<RunOutput, String> {
        let mut objects = Objects::new(&self.device);
        let result = self.run_with(spirv, job, &mut objects);
        objects.destroy();
        result
    }

    fn run_with(&self, spirv: &[u32], job: &Job, o: &mut Objects<'_>) -> Result<RunOutput, String> {
        let d = &self.device;
        let vkerr = |what: &'static str| move |e: vk::Result| format!("{what}: {e}");
        // SAFETY (whole function): every handle passed to Vulkan below was created from `d` in
        // this function and is destroyed by `o` only after the queue is idle.
        let module = unsafe {
            d.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(spirv), None)
        }
        .map_err(vkerr("vkCreateShaderModule"))?;
        o.modules.push(module);

        // One descriptor-set layout per set number 0..=max, empty where the job binds nothing.
        let sets = job.buffers.iter().map(|b| b.set + 1).max().unwrap_or(0);
        let descriptor_type = |k: BufferKind| match k {
            BufferKind::Storage => vk::DescriptorType::STORAGE_BUFFER,
            BufferKind::Uniform => vk::DescriptorType::UNIFORM_BUFFER,
        };
        let mut set_layouts = Vec::new();
        for set in 0..sets {
            // One binding per binding number; an array of blocks has one element per index.
            let bindings: Vec<_> = job
                .buffers
                .iter()
                .filter(|b| b.set == set && b.index == 0)
                .map(|b| {
                    let count = job
                        .buffers
                        .iter()
                        .filter(|o| (o.set, o.binding) == (b.set, b.binding))
                        .map(|o| o.index + 1)
                        .max()
                        .unwrap_or(1);
                    vk::DescriptorSetLayoutBinding::default()
                        .binding(b.binding)
                        .descriptor_type(descriptor_type(b.kind))
                        .descriptor_count(count)
                        .stage_flags(vk::ShaderStageFlags::COMPUTE)
                })
                .collect();
            let layout = unsafe {
                d.create_descriptor_set_layout(
                    &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
                    None,
                )
            }
            .map_err(vkerr("vkCreateDescriptorSetLayout"))?;
            o.set_layouts.push(layout);
            set_layouts.push(layout);
        }
        let push = job.push_constants.as_ref().map(|pc| {
            let mut bytes = pc.bytes.clone();
            bytes.resize(bytes.len().next_multiple_of(4), 0);
            bytes
        });
        let ranges: Vec<_> = push
            .iter()
            .filter(|p| !p.is_empty())
            .map(|p| {
                vk::PushConstantRange::default()
                    .stage_flags(vk::ShaderStageFlags::COMPUTE)
                    .offset(0)
                    .size(p.len() as u32)
            })
            .collect();
        let pipeline_layout = unsafe {
            d.create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default()
                    .set_layouts(&set_layouts)
                    .push_constant_ranges(&ranges),
                None,
            )
        }
        .map_err(vkerr("vkCreatePipelineLayout"))?;
        o.pipeline_layouts.push(pipeline_layout);

        let (map_entries, spec_data) = specialization(spirv, job)?;
        let spec = vk::SpecializationInfo::default()
            .map_entries(&map_entries)
            .data(&spec_data);
        let name = CString::new(job.entry.clone().unwrap_or_else(|| "main".into()))
            .map_err(|_| "entry name with a NUL".to_string())?;
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(&name)
            .specialization_info(&spec);
        let pipeline = unsafe {
            d.create_compute_pipelines(
                vk::PipelineCache::null(),
                &[vk::ComputePipelineCreateInfo::default()
                    .stage(stage)
                    .layout(pipeline_layout)],
                None,
            )
        }
        .map_err(|(_, e)| format!("vkCreateComputePipelines: {e}"))?;
        o.pipelines.extend(&pipeline);

        // Buffers in host-visible, coherent memory, filled from the job.
        // SAFETY: a valid physical device.
        let memory_props = unsafe {
            self.instance
                .get_physical_device_memory_properties(self.physical)
        };
        let mut buffers = Vec::new();
        for b in &job.buffers {
            let size = b.data.bytes.len().max(4) as u64;
            let buffer = unsafe {
                d.create_buffer(
                    &vk::BufferCreateInfo::default()
                        .size(size)
                        .usage(
                            vk::BufferUsageFlags::STORAGE_BUFFER
                                | vk::BufferUsageFlags::UNIFORM_BUFFER,
                        )
                        .sharing_mode(vk::SharingMode::EXCLUSIVE),
                    None,
                )
            }
            .map_err(vkerr("vkCreateBuffer"))?;
            o.buffers.push(buffer);
            let req = unsafe { d.get_buffer_memory_requirements(buffer) };
            let wanted =
                vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
            let type_index = (0..memory_props.memory_type_count)
                .find(|&i| {
                    req.memory_type_bits & (1 << i) != 0
                        && memory_props.memory_types[i as usize]
                            .property_flags
                            .contains(wanted)
                })
                .ok_or("no host-visible coherent memory")?;
            let memory = unsafe {
                d.allocate_memory(
                    &vk::MemoryAllocateInfo::default()
                        .allocation_size(req.size)
                        .memory_type_index(type_index),
                    None,
                )
            }
            .map_err(vkerr("vkAllocateMemory"))?;
            o.memories.push(memory);
            unsafe { d.bind_buffer_memory(buffer, memory, 0) }
                .map_err(vkerr("vkBindBufferMemory"))?;
            let ptr =
                unsafe { d.map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()) }
                    .map_err(vkerr("vkMapMemory"))? as *mut u8;
            // SAFETY: the mapping holds at least `size >= bytes.len()` bytes.
            unsafe {
                std::ptr::copy_nonoverlapping(b.data.bytes.as_ptr(), ptr, b.data.bytes.len())
            };
            buffers.push((buffer, ptr));
        }

        // Descriptor sets.
        let mut descriptor_sets = Vec::new();
        if sets > 0 {
            let mut sizes = Vec::new();
            for kind in [BufferKind::Storage, BufferKind::Uniform] {
                let n = job.buffers.iter().filter(|b| b.kind == kind).count() as u32;
                if n > 0 {
                    sizes.push(
                        vk::DescriptorPoolSize::default()
                            .ty(descriptor_type(kind))
                            .descriptor_count(n),
                    );
                }
            }
            let pool = unsafe {
                d.create_descriptor_pool(
                    &vk::DescriptorPoolCreateInfo::default()
                        .max_sets(sets)
                        .pool_sizes(&sizes),
                    None,
                )
            }
            .map_err(vkerr("vkCreateDescriptorPool"))?;
            o.pools.push(pool);
            descriptor_sets = unsafe {
                d.allocate_descriptor_sets(
                    &vk::DescriptorSetAllocateInfo::default()
                        .descriptor_pool(pool)
                        .set_layouts(&set_layouts),
                )
            }
            .map_err(vkerr("vkAllocateDescriptorSets"))?;
            let infos: Vec<_> = buffers
                .iter()
                .map(|&(buffer, _)| {
                    [vk::DescriptorBufferInfo::default()
                        .buffer(buffer)
                        .offset(0)
                        .range(vk::WHOLE_SIZE)]
                })
                .collect();
            let writes: Vec<_> = job
                .buffers
                .iter()
                .zip(&infos)
                .map(|(b, info)| {
                    vk::WriteDescriptorSet::default()
                        .dst_set(descriptor_sets[b.set as usize])
                        .dst_binding(b.binding)
                        .dst_array_element(b.index)
                        .descriptor_type(descriptor_type(b.kind))
                        .buffer_info(info)
                })
                .collect();
            unsafe { d.update_descriptor_sets(&writes, &[]) };
        }

        // Record, submit, wait.
        let pool = unsafe {
            d.create_command_pool(
                &vk::CommandPoolCreateInfo::default().queue_family_index(self.family),
                None,
            )
        }
        .map_err(vkerr("vkCreateCommandPool"))?;
        o.command_pools.push(pool);
        let cb = unsafe {
            d.allocate_command_buffers(
                &vk::CommandBufferAllocateInfo::default()
                    .command_pool(pool)
                    .level(vk::CommandBufferLevel::PRIMARY)
                    .command_buffer_count(1),
            )
        }
        .map_err(vkerr("vkAllocateCommandBuffers"))?[0];
        unsafe {
            d.begin_command_buffer(
                cb,
                &vk::CommandBufferBeginInfo::default()
                    .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT),
            )
            .map_err(vkerr("vkBeginCommandBuffer"))?;
            d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::COMPUTE, pipeline[0]);
            if !descriptor_sets.is_empty() {
                d.cmd_bind_descriptor_sets(
                    cb,
                    vk::PipelineBindPoint::COMPUTE,
                    pipeline_layout,
                    0,
                    &descriptor_sets,
                    &[],
                );
            }
            if let Some(p) = push.as_ref().filter(|p| !p.is_empty()) {
                d.cmd_push_constants(cb, pipeline_layout, vk::ShaderStageFlags::COMPUTE, 0, p);
            }
            let [x, y, z] = job.dispatch;
            d.cmd_dispatch(cb, x, y, z);
            let barrier = vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::SHADER_WRITE)
                .dst_access_mask(vk::AccessFlags::HOST_READ);
            d.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &[barrier],
                &[],
                &[],
            );
            d.end_command_buffer(cb)
                .map_err(vkerr("vkEndCommandBuffer"))?;
        }
        let fence = unsafe { d.create_fence(&vk::FenceCreateInfo::default(), None) }
            .map_err(vkerr("vkCreateFence"))?;
        o.fences.push(fence);
        let cbs = [cb];
        unsafe {
            d.queue_submit(
                self.queue,
                &[vk::SubmitInfo::default().command_buffers(&cbs)],
                fence,
            )
            .map_err(vkerr("vkQueueSubmit"))?;
            d.wait_for_fences(&[fence], true, u64::MAX)
                .map_err(vkerr("vkWaitForFences"))?;
        }

        let out = job
            .buffers
            .iter()
            .zip(&buffers)
            .map(|(b, &(_, ptr))| {
                let mut data = b.data.clone();
                // SAFETY: the mapping is live and holds `bytes.len()` bytes; the GPU is idle.
                unsafe {
                    std::ptr::copy_nonoverlapping(ptr, data.bytes.as_mut_ptr(), data.bytes.len())
                };
                OutputBuffer {
                    id: BufferId::descriptor(b.set, b.binding, b.index),
                    data,
                }
            })
            .collect();
        Ok(RunOutput { buffers: out })
    }
}

impl Drop for Vulkan {
    fn drop(&mut self) {
        // SAFETY: every object created from the device was destroyed by `run`.
        unsafe {
            let _ = self.device.device_wait_idle();
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

/// The specialization map of a job: each SpecId's bits, in the constant's size (booleans as
/// 4-byte VkBool32), typed through the module's own declarations.
fn specialization(
    spirv: &[u32],
    job: &Job,
) -> Result<(Vec<vk::SpecializationMapEntry>, Vec<u8>), String> {
    if job.spec_constants.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let module = spvkit::ir::deserialize(spirv).map_err(|e| format!("{e:?}"))?;
    let options = spvkit::run::lower_options(&module, job).map_err(|e| e.to_string())?;
    let mut entries = Vec::new();
    let mut data = Vec::new();
    for (&id, &bits) in &options.spec_constants {
        let size = module
            .spec_constants
            .iter()
            .find(|(_, c)| c.spec_id == Some(id))
            .and_then(|(_, c)| module.types.get(c.ty))
            .and_then(|t| match t {
                spvkit::ir::Type::Bool => Some(4),
                t => t.scalar_width().map(|w| (w / 8) as usize),
            })
            .ok_or_else(|| format!("spec constant {id}: not a scalar"))?;
        entries.push(
            vk::SpecializationMapEntry::default()
                .constant_id(id)
                .offset(data.len() as u32)
                .size(size),
        );
        data.extend_from_slice(&bits.to_le_bytes()[..size]);
    }
    Ok((entries, data))
}

/// Objects of one run, destroyed in reverse order of creation kind.
struct Objects<'d> {
    device: &'d ash::Device,
    modules: Vec<vk::ShaderModule>,
    set_layouts: Vec<vk::DescriptorSetLayout>,
    pipeline_layouts: Vec<vk::PipelineLayout>,
    pipelines: Vec<vk::Pipeline>,
    buffers: Vec<vk::Buffer>,
    memories: Vec<vk::DeviceMemory>,
    pools: Vec<vk::DescriptorPool>,
    command_pools: Vec<vk::CommandPool>,
    fences: Vec<vk::Fence>,
}

impl<'d> Objects<'d> {
    fn new(device: &'d ash::Device) -> Objects<'d> {
        Objects {
            device,
            modules: Vec::new(),
            set_layouts: Vec::new(),
            pipeline_layouts: Vec::new(),
            pipelines: Vec::new(),
            buffers: Vec::new(),
            memories: Vec::new(),
            pools: Vec::new(),
            command_pools: Vec::new(),
            fences: Vec::new(),
        }
    }

    fn destroy(&mut self) {
        let d = self.device;
        // SAFETY: all objects were created from `d`; waiting for idle first makes none in use.
        unsafe {
            let _ = d.device_wait_idle();
            for f in self.fences.drain(..) {
                d.destroy_fence(f, None);
            }
            for p in self.command_pools.drain(..) {
                d.destroy_command_pool(p, None);
            }
            for p in self.pools.drain(..) {
                d.destroy_descriptor_pool(p, None);
            }
            for b in self.buffers.drain(..) {
                d.destroy_buffer(b, None);
            }
            for m in self.memories.drain(..) {
                d.free_memory(m, None);
            }
            for p in self.pipelines.drain(..) {
                d.destroy_pipeline(p, None);
            }
            for l in self.pipeline_layouts.drain(..) {
                d.destroy_pipeline_layout(l, None);
            }
            for l in self.set_layouts.drain(..) {
                d.destroy_descriptor_set_layout(l, None);
            }
            for m in self.modules.drain(..) {
                d.destroy_shader_module(m, None);
            }
        }
    }
}
